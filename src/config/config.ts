// Configuration is read from the environment exactly once, validated as a whole (every problem is
// listed in one error so an operator fixes them in one pass), frozen, then passed down. No other
// module reads process.env.
import { isIP } from 'node:net';

export type Role = 'all' | 'api' | 'projector' | 'webhooks';
export type EventStoreKind = 'postgres' | 'eventstoredb';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absent: the embedded PGlite database in dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly eventStore: EventStoreKind;
  readonly eventStoreConnectionString: string | undefined;
  readonly logLevel: LogLevel;
  readonly role: Role;
  /** 32-byte key (base64 or hex); absent only on the embedded default, where it is generated into dataDir. */
  readonly secretsKey: Buffer | undefined;
  readonly webhookAllowedPrivateCidrs: readonly string[];
  readonly webhookRetryDelaysSeconds: readonly number[];
  readonly webhookTimeoutMs: number;
  /** Maximum lag (events) for /readyz to call a projection caught up. */
  readonly readyMaxLagEvents: number;
  /** An Idempotency-Key claim left unanswered this long is judged by the log (src/http/idempotency/abandoned-claim.ts). */
  readonly idempotencyAbandonedAfterSeconds: number;
  /** Daily exchange-rate fetch from the providers' public URLs. */
  readonly ratesFetch: boolean;
  /** PostgreSQL resilience (docs/operations.md): connect and statement bounds, so a lost or frozen server fails requests fast. */
  readonly dbConnectTimeoutMs: number;
  readonly dbStatementTimeoutMs: number;
  readonly dbIdleInTransactionTimeoutMs: number;
  /** How long /readyz waits for the database before answering 503. */
  readonly readyTimeoutMs: number;
  /** A partner request (header fields and body) must have arrived within this, else 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  /** The operator listener (/metrics, /healthz, /readyz), every role; port 0 = ephemeral. */
  readonly metricsHost: string;
  readonly metricsPort: number;
  /** The loopback admin API of the embedded default (the CLI's door); 0 picks a free port. */
  readonly adminPort: number;
  /** Live (not deleted) webhook subscriptions one tenant may hold. */
  readonly webhookMaxSubscriptionsPerTenant: number;
  /** Partner-API rate limits (docs/decisions.md "Limits"); `enabled: false` only for benchmarks. */
  readonly rateLimit: RateLimitConfig;
  /** Shared rate-limit counters across processes; absent: each process counts on its own. */
  readonly redisUrl: string | undefined;
  /**
   * Addresses and CIDR ranges of the reverse proxies in front of the API: a request from one of
   * them is taken to come from the nearest untrusted address in X-Forwarded-For. Empty: the
   * connection's own address (a client can then not choose its address by a header).
   */
  readonly trustProxy: readonly string[];
}

export interface RateLimitConfig {
  readonly enabled: boolean;
  /** Requests per API key per window. */
  readonly perKeyMax: number;
  readonly perKeyWindowSeconds: number;
  /** Failed authentications per client address per window; beyond it the address gets 429. */
  readonly authFailuresMax: number;
  readonly authFailuresWindowSeconds: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_RETRY_DELAYS_SECONDS = [30, 60, 300, 900, 3600, 10800, 43200, 86400] as const;

type Env = Record<string, string | undefined>;

/**
 * The shortest safe IDEMPOTENCY_ABANDONED_AFTER_SECONDS: longer than a request can run on a frozen
 * database (waits for a connection, up to two sends of an append, each bounded by the statement
 * timeout and the client's 2 s margin, and the reads around them: four such waits). A shorter
 * window lets a retry take over a claim whose request is still running, and run it twice.
 */
export function idempotencyWindowFloorSeconds(dbConnectTimeoutMs: number, dbStatementTimeoutMs: number): number {
  return Math.ceil((4 * (dbConnectTimeoutMs + dbStatementTimeoutMs + 2_000)) / 1000);
}

export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const str = (key: string): string | undefined => {
    const v = env[key];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const raw = str(key);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      problems.push(`${key} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
    const raw = str(key);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${key} must be one of ${allowed.join('|')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = str('HOST') ?? '0.0.0.0';
  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const dataDir = str('DATA_DIR') ?? './data';
  const eventStore = oneOf<EventStoreKind>('EVENT_STORE', ['postgres', 'eventstoredb'], 'postgres');
  const eventStoreConnectionString = str('EVENTSTORE_CONNECTION_STRING');
  if (eventStore === 'eventstoredb') {
    if (eventStoreConnectionString === undefined) {
      problems.push('EVENTSTORE_CONNECTION_STRING is required when EVENT_STORE=eventstoredb');
    }
    if (databaseUrl === undefined) {
      problems.push('DATABASE_URL is required when EVENT_STORE=eventstoredb (read models live in PostgreSQL)');
    }
  }
  const logLevel = oneOf<LogLevel>('LOG_LEVEL', LOG_LEVELS, 'info');
  const role = oneOf<Role>('ROLE', ['all', 'api', 'projector', 'webhooks'], 'all');
  if (role !== 'all' && databaseUrl === undefined) {
    problems.push(`ROLE=${role} needs DATABASE_URL: the embedded database can be opened by one process only`);
  }

  let secretsKey: Buffer | undefined;
  const rawKey = str('SECRETS_KEY');
  if (rawKey !== undefined) {
    secretsKey = parseKey(rawKey);
    if (secretsKey === undefined) problems.push('SECRETS_KEY must be 32 bytes, as 64 hex characters or base64');
  } else if (databaseUrl !== undefined) {
    problems.push('SECRETS_KEY is required with DATABASE_URL (it is generated into DATA_DIR only on the embedded default)');
  }

  const list = (key: string): string[] =>
    (str(key) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const cidrs = list('WEBHOOK_ALLOWED_PRIVATE_CIDRS');
  for (const c of cidrs) if (!isCidr(c)) problems.push(`WEBHOOK_ALLOWED_PRIVATE_CIDRS: "${c}" is not a CIDR range`);
  const trustProxy = list('TRUST_PROXY');
  for (const p of trustProxy) {
    if (isIP(p) === 0 && !isCidr(p)) problems.push(`TRUST_PROXY: "${p}" is not an IP address or a CIDR range`);
  }

  let delays: number[] = [...DEFAULT_RETRY_DELAYS_SECONDS];
  const rawDelays = str('WEBHOOK_RETRY_DELAYS_SECONDS');
  if (rawDelays !== undefined) {
    const parts = rawDelays.split(',').map((s) => s.trim());
    if (parts.length !== 8 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) {
      problems.push('WEBHOOK_RETRY_DELAYS_SECONDS must be 8 comma-separated non-negative numbers (seconds)');
    } else delays = parts.map(Number);
  }
  const webhookTimeoutMs = int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000);
  const readyMaxLagEvents = int('READY_MAX_LAG_EVENTS', 1000, 0, 10_000_000);
  const ratesFetch = oneOf('RATES_FETCH', ['on', 'off'], 'on') === 'on';
  const webhookMaxSubscriptionsPerTenant = int('WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT', 20, 1, 10_000);
  const rateLimit: RateLimitConfig = Object.freeze({
    enabled: oneOf('RATE_LIMIT', ['on', 'off'], 'on') === 'on',
    perKeyMax: int('RATE_LIMIT_PER_KEY_MAX', 6000, 1, 100_000_000),
    perKeyWindowSeconds: int('RATE_LIMIT_PER_KEY_WINDOW_SECONDS', 60, 1, 86_400),
    authFailuresMax: int('RATE_LIMIT_AUTH_FAILURES_MAX', 100, 1, 100_000_000),
    authFailuresWindowSeconds: int('RATE_LIMIT_AUTH_FAILURES_WINDOW_SECONDS', 60, 1, 86_400),
  });
  const redisUrl = str('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  const dbConnectTimeoutMs = int('DB_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000);
  const dbStatementTimeoutMs = int('DB_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const idempotencyAbandonedAfterSeconds = int(
    'IDEMPOTENCY_ABANDONED_AFTER_SECONDS',
    Math.max(300, idempotencyWindowFloorSeconds(dbConnectTimeoutMs, dbStatementTimeoutMs)),
    1,
    86_400,
  );
  const dbIdleInTransactionTimeoutMs = int('DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000, 100, 3_600_000);
  const readyTimeoutMs = int('READY_TIMEOUT_MS', 2_000, 50, 60_000);
  const requestTimeoutMs = int('REQUEST_TIMEOUT_MS', 120_000, 1_000, 3_600_000);
  const metricsHost = str('METRICS_HOST') ?? '127.0.0.1';
  const metricsPort = int('METRICS_PORT', 9464, 0, 65535);
  const adminPort = int('ADMIN_PORT', 0, 0, 65535);

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    databaseUrl,
    dataDir,
    eventStore,
    eventStoreConnectionString,
    logLevel,
    role,
    secretsKey,
    webhookAllowedPrivateCidrs: Object.freeze(cidrs),
    webhookRetryDelaysSeconds: Object.freeze(delays),
    webhookTimeoutMs,
    readyMaxLagEvents,
    idempotencyAbandonedAfterSeconds,
    ratesFetch,
    webhookMaxSubscriptionsPerTenant,
    rateLimit,
    redisUrl,
    trustProxy: Object.freeze(trustProxy),
    dbConnectTimeoutMs,
    dbStatementTimeoutMs,
    dbIdleInTransactionTimeoutMs,
    readyTimeoutMs,
    requestTimeoutMs,
    metricsHost,
    metricsPort,
    adminPort,
  });
}

export function parseKey(raw: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) {
    const b = Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64');
    if (b.length === 32) return b;
  }
  return undefined;
}

function isCidr(s: string): boolean {
  const [addr, bits, extra] = s.split('/');
  if (extra !== undefined || addr === undefined || bits === undefined || !/^\d+$/.test(bits)) return false;
  const v = isIP(addr);
  return v !== 0 && Number(bits) <= (v === 4 ? 32 : 128);
}
