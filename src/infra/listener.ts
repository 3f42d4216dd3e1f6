// A dedicated LISTEN connection for a cache whose correctness rests on hearing every notification
// (src/tenancy/principal-cache.ts, src/http/read-cache.ts). Its loss must be noticed, including
// a silent one (a half-open TCP connection after a failover raises no error): TCP keepalive, and
// a round trip every HEARTBEAT_MS that must answer within HEARTBEAT_MS. An error, an end or a missed
// heartbeat reports `onLost` once. `ReconnectingListener` (below) then opens a new connection with
// backoff: an owner stops relying on notifications while down, and starts again from nothing once
// LISTEN is back (whatever was announced in between is lost).
import pg from 'pg';
import { backoffMs } from './availability.js';

const HEARTBEAT_MS = 5_000;

export interface Listener {
  readonly client: pg.Client;
  /** The server process of the LISTEN session (operators' logs; tests terminate it to simulate a loss). */
  sessionPid(): number | undefined;
  close(): Promise<void>;
}

/** pg sets `processID` once connected, but its types do not declare it. */
const processIdOf = (client: pg.Client): number | undefined => (client as pg.Client & { processID?: number }).processID;

export async function openListener(o: {
  connectionString: string;
  searchPath?: string | undefined;
  channel: string;
  onNotification: (payload: string) => void;
  onLost: (err?: unknown) => void;
  /** Runs after LISTEN is in place and before `onLost` can be reported for a healthy start. */
  afterListen?: (client: pg.Client) => Promise<void>;
  /** The heartbeat interval and deadline (tests shorten it). */
  heartbeatMs?: number;
}): Promise<Listener> {
  const heartbeatMs = o.heartbeatMs ?? HEARTBEAT_MS;
  const client = new pg.Client({
    connectionString: o.connectionString,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // A frozen or unreachable server must fail the attempt (and let the reconnect loop retry), not hang it.
    connectionTimeoutMillis: Math.max(heartbeatMs * 2, 2_000),
    ...(o.searchPath ? { options: `-c search_path=${o.searchPath}` } : {}),
  });
  let lost = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const lose = (err?: unknown): void => {
    if (lost) return;
    lost = true;
    if (heartbeat) clearInterval(heartbeat);
    o.onLost(err);
    client.end().catch(() => undefined);
  };
  client.on('error', lose);
  client.on('end', () => lose());
  client.on('notification', (msg) => o.onNotification(msg.payload ?? ''));
  try {
    await client.connect();
    await client.query(`listen ${o.channel}`);
    await o.afterListen?.(client);
  } catch (err) {
    lose(err);
    throw err;
  }
  heartbeat = setInterval(() => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('listener heartbeat timed out')), heartbeatMs);
    });
    Promise.race([client.query('select 1'), deadline]).then(
      () => clearTimeout(timer),
      (err: unknown) => {
        clearTimeout(timer);
        lose(err);
      },
    );
  }, heartbeatMs);
  heartbeat.unref();
  return {
    client,
    sessionPid: () => processIdOf(client),
    async close() {
      lost = true; // a deliberate close is not a loss
      if (heartbeat) clearInterval(heartbeat);
      await client.end().catch(() => undefined);
    },
  };
}

export interface ReconnectingListenerOptions {
  connectionString: string;
  searchPath?: string | undefined;
  channel: string;
  onNotification: (payload: string) => void;
  /** Runs on every (re)connection after LISTEN and before `onUp`. */
  afterListen?: (client: pg.Client) => Promise<void>;
  /** LISTEN is in place (again): from now on every notification is heard. */
  onUp?: () => void;
  /** The connection was lost: notifications may be missed until the next `onUp`. */
  onDown?: (err?: unknown) => void;
  /** A (re)connection attempt failed; another follows after a backoff. */
  onError?: (err: unknown) => void;
  heartbeatMs?: number;
}

/** A LISTEN connection that comes back by itself after a loss (a PostgreSQL restart, a terminated backend). */
export class ReconnectingListener {
  private current: Listener | undefined;
  private closed = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;
  private connecting: Promise<boolean> | undefined;

  constructor(private readonly o: ReconnectingListenerOptions) {}

  /** The client of the live connection, if any. */
  get client(): pg.Client | undefined {
    return this.current?.client;
  }

  get up(): boolean {
    return this.current !== undefined;
  }

  /** The server process of the live LISTEN session, if any. */
  sessionPid(): number | undefined {
    return this.current?.sessionPid();
  }

  /** Connects once: true when LISTEN is in place; false when it is not yet (it keeps trying in the background). */
  start(): Promise<boolean> {
    return this.connect();
  }

  private connect(): Promise<boolean> {
    this.retry = undefined;
    if (this.closed) return Promise.resolve(false);
    let opening = true;
    const attempt = openListener({
      connectionString: this.o.connectionString,
      searchPath: this.o.searchPath,
      channel: this.o.channel,
      onNotification: this.o.onNotification,
      ...(this.o.afterListen ? { afterListen: this.o.afterListen } : {}),
      ...(this.o.heartbeatMs !== undefined ? { heartbeatMs: this.o.heartbeatMs } : {}),
      onLost: (err) => {
        if (!opening) this.lost(err);
      }, // a failed open is reported by the catch below
    }).then(
      async (listener) => {
        opening = false;
        if (this.closed) {
          await listener.close();
          return false;
        }
        this.current = listener;
        this.attempt = 0;
        this.o.onUp?.();
        return true;
      },
      (err: unknown) => {
        opening = false;
        this.o.onError?.(err);
        this.schedule();
        return false;
      },
    );
    this.connecting = attempt.finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private lost(err?: unknown): void {
    this.current = undefined;
    this.o.onDown?.(err);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => void this.connect(), backoffMs(this.attempt++));
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.connecting;
    await this.current?.close();
    this.current = undefined;
  }
}
