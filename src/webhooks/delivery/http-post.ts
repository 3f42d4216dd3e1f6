// One HTTPS POST of a delivery to addresses that url-policy.ts has already vetted. node:https is used
// directly because every one of these properties has to hold and each is easy to lose with a
// higher-level client:
//   - connect only to the vetted addresses: a custom `lookup` answers with them, so the host name is
//     never resolved again between check and connect (DNS rebinding);
//   - TLS verified against the URL's host name (SNI and certificate check use the name, not the IP),
//     rejectUnauthorized forced on so NODE_TLS_REJECT_UNAUTHORIZED cannot switch it off;
//   - no proxy: node:https does not read HTTP(S)_PROXY (a proxy would resolve the name itself);
//   - no redirects: node:https never follows them; a 3xx is returned as class `redirect`;
//   - one deadline for connect + TLS + request + response head + body;
//   - no Accept-Encoding, so no decompression; at most 2 KB of the body is read, then the socket is
//     dropped rather than drained;
//   - error messages are built from error codes, never from Node's messages, which carry addresses.
import https from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AttemptResult, FailureClass } from './outcome.js';
import { failureClassForStatus } from './outcome.js';
import { truncateUtf8 } from './truncate-utf8.js';
import { hostOf, type ResolvedAddress } from '../subscriptions/url-policy.js';

export const RESPONSE_BODY_LIMIT_BYTES = 2048;

export interface PostWebhookRequest {
  /** The URL returned by checkWebhookUrl. */
  url: URL;
  /** The addresses returned by the same checkWebhookUrl call; the only ones connected to. */
  addresses: readonly ResolvedAddress[];
  /** Sent exactly as given. */
  body: Buffer;
  /** The delivery headers; Content-Length is set here, Host by Node from the URL. */
  headers: Readonly<Record<string, string>>;
  /** Deadline for the whole exchange. */
  timeoutMs: number;
  /** Trust anchors replacing the system store (tests: the receiver's self-signed certificate). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Connection pool: the process's keep-alive agent (DeliveryTransport, or createWebhookAgent in tests). */
  agent: https.Agent;
}

export interface WebhookAgentOptions {
  /** Idle keep-alive sockets are closed after this long; below the common 5 s server default so we rarely reuse a socket the server is closing. */
  idleTimeoutMs?: number;
  /** Idle sockets kept per origin. */
  maxFreeSocketsPerOrigin?: number;
}

/**
 * A keep-alive agent for deliveries. Node pools its sockets per origin (host, port and TLS options).
 * A pooled socket stays connected to the address that was vetted when it was opened. No cap on
 * concurrent sockets: requests queued inside the agent would burn their deadline waiting, so the
 * dispatcher should bound in-flight deliveries per subscription itself.
 */
export function createWebhookAgent({ idleTimeoutMs = 4000, maxFreeSocketsPerOrigin = 64 }: WebhookAgentOptions = {}): https.Agent {
  return new https.Agent({ keepAlive: true, timeout: idleTimeoutMs, maxFreeSockets: maxFreeSocketsPerOrigin, scheduling: 'lifo' });
}

/** Never rejects: every failure is an AttemptResult with a failure class. */
export function postWebhook(request: PostWebhookRequest): Promise<AttemptResult> {
  const { url, addresses, body, timeoutMs, ca, agent } = request;
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);

  if (url.protocol !== 'https:' || addresses.length === 0) {
    // Callers must pass checkWebhookUrl's output; refuse rather than guess.
    return Promise.resolve({ latencyMs: 0, failureClass: 'blocked_address', errorMessage: 'The URL was not checked against the policy.' });
  }
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  const headers = outgoingHeaders(request.headers, body.length);

  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    let current: ClientRequest | undefined;
    let sends = 0;
    const finish = (r: Omit<AttemptResult, 'latencyMs'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: elapsed() });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      current?.destroy(new Error('deadline'));
    }, timeoutMs);

    const send = (): void => {
      sends++;
      // Where the exchange was when an error arrived decides its class: before TCP connect it is
      // `connect`, during the handshake `tls`, afterwards a broken connection (`connect`).
      let phase: 'connect' | 'tls' | 'exchange' = 'connect';
      let responded = false;
      const req = https.request({
        method: 'POST',
        hostname: host,
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers,
        agent,
        ...(ca !== undefined ? { ca } : {}),
        rejectUnauthorized: true,
        // An IP-literal URL connects to itself (SNI cannot carry an IP); a name gets the pinned lookup.
        ...(literal ? {} : { servername: host.replace(/\.$/, ''), lookup: pinnedLookup(addresses) }),
      });
      current = req;
      req.on('socket', (socket) => {
        if (req.reusedSocket) phase = 'exchange';
        else {
          socket.once('connect', () => {
            phase = 'tls';
          });
          socket.once('secureConnect', () => {
            phase = 'exchange';
          });
        }
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (settled || responded) return;
        if (timedOut) return finish(timeoutResult(timeoutMs));
        const code = errorCode(err);
        // A keep-alive socket the server closed while idle fails on first use; Node's documented
        // remedy is to send again on a fresh socket. A duplicate is harmless: partners dedupe on
        // Service-Event-Id.
        if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE') && sends < 3) return send();
        finish(networkFailure(isTlsCode(code) ? 'tls' : phase, code));
      });
      req.on('response', (res) => {
        responded = true;
        readResponse(res, () => timedOut, timeoutMs, finish);
      });
      req.end(body);
    };
    send();
  });
}

function readResponse(
  res: IncomingMessage,
  isTimedOut: () => boolean,
  timeoutMs: number,
  finish: (r: Omit<AttemptResult, 'latencyMs'>) => void,
): void {
  const statusCode = res.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const complete = (truncated: boolean): void => {
    if (done) return;
    done = true;
    const raw = Buffer.concat(chunks);
    // PostgreSQL text cannot hold NUL; replace it, then cut again since U+FFFD is three bytes.
    const text = truncateUtf8(truncateUtf8(raw, RESPONSE_BODY_LIMIT_BYTES).replaceAll('\u0000', '\uFFFD'), RESPONSE_BODY_LIMIT_BYTES);
    const failureClass = failureClassForStatus(statusCode);
    finish({
      statusCode,
      ...(failureClass ? { failureClass } : {}),
      responseBody: text,
      ...(truncated ? { responseTruncated: true } : {}),
      errorMessage: statusMessage(statusCode),
    });
  };
  res.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size > RESPONSE_BODY_LIMIT_BYTES) {
      complete(true);
      res.destroy(); // the rest is not worth reading; the socket is not reused
    }
  });
  res.on('end', () => complete(false));
  res.on('error', () => undefined); // reported through 'close'
  res.on('close', () => {
    // Before 'end': the deadline hit while reading, or the partner cut the body short. The status
    // line arrived, so a cut body still counts as that status; the deadline is a timeout.
    if (isTimedOut()) finish({ statusCode, ...timeoutResult(timeoutMs) });
    else complete(false);
  });
}

/** A `lookup` for net.connect that answers with the vetted addresses only. */
function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (
    _hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : [...addresses];
    process.nextTick(() => {
      const first = usable[0];
      if (first === undefined) {
        callback(Object.assign(new Error('no vetted address of the requested family'), { code: 'ENOTFOUND' }), '');
      } else if (options.all) {
        callback(
          null,
          usable.map((a) => ({ address: a.address, family: a.family })),
        );
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

/** Caller headers minus the ones the transport owns, plus the exact Content-Length. */
function outgoingHeaders(input: Readonly<Record<string, string>>, length: number): Record<string, string> {
  const owned = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'accept-encoding']);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(input)) if (!owned.has(k.toLowerCase())) out[k] = v;
  out['Content-Length'] = String(length);
  return out;
}

function errorCode(err: NodeJS.ErrnoException): string | undefined {
  // Happy-eyeballs connects report an AggregateError holding one error per address.
  const inner = (err as { errors?: NodeJS.ErrnoException[] }).errors?.[0];
  const code = err.code ?? inner?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,48}$/.test(code) ? code : undefined;
}

// OpenSSL certificate-verification codes come without a prefix; Node's own TLS codes are ERR_TLS_/ERR_SSL_.
const CERT_CODES =
  /^(UNABLE_TO_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|INVALID_CA|PATH_LENGTH_EXCEEDED|INVALID_PURPOSE|ERR_TLS_|ERR_SSL_)/;
const isTlsCode = (code: string | undefined): boolean => code !== undefined && (CERT_CODES.test(code) || code === 'EPROTO');

const CONNECT_MESSAGES: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset',
  EPIPE: 'Connection closed while sending',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  ETIMEDOUT: 'Connection timed out',
  ENOTFOUND: 'No address to connect to',
};

function networkFailure(phase: 'connect' | 'tls' | 'exchange', code: string | undefined): Omit<AttemptResult, 'latencyMs'> {
  const suffix = code ? ` (${code})` : '';
  if (phase === 'tls') return { failureClass: 'tls', errorMessage: `TLS handshake failed${suffix}` };
  const failureClass: FailureClass = 'connect';
  if (phase === 'exchange') return { failureClass, errorMessage: `Connection lost before a response${suffix}` };
  return { failureClass, errorMessage: (code && CONNECT_MESSAGES[code]) ?? `Connection failed${suffix}` };
}

const timeoutResult = (timeoutMs: number): Omit<AttemptResult, 'latencyMs'> => ({
  failureClass: 'timeout',
  errorMessage: `No complete response within ${timeoutMs} ms`,
});

function statusMessage(statusCode: number): string {
  return statusCode >= 300 && statusCode <= 399 ? `HTTP ${statusCode} (redirect not followed)` : `HTTP ${statusCode}`;
}
