// A dedicated LISTEN connection for a cache whose correctness rests on hearing every notification
// (src/tenancy/principal-cache.ts, src/http/read-cache.ts). Its loss must be noticed, including
// a silent one (a half-open TCP connection after a failover raises no error): TCP keepalive, and
// a round trip every HEARTBEAT_MS that must answer within HEARTBEAT_MS. An error, an end or a missed
// heartbeat reports `onLost` once; the owner then stops caching.
import pg from 'pg';

const HEARTBEAT_MS = 5_000;

export interface Listener {
  readonly client: pg.Client;
  close(): Promise<void>;
}

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
    const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('listener heartbeat timed out')), heartbeatMs); });
    Promise.race([client.query('select 1'), deadline]).then(() => clearTimeout(timer), (err: unknown) => { clearTimeout(timer); lose(err); });
  }, heartbeatMs);
  heartbeat.unref();
  return {
    client,
    async close() {
      lost = true; // a deliberate close is not a loss
      if (heartbeat) clearInterval(heartbeat);
      await client.end().catch(() => undefined);
    },
  };
}
