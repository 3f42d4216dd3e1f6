// A dispatcher's liveness as the database sees it (issue 13): one dedicated connection that holds a
// session-level advisory lock keyed by its own backend pid for as long as the dispatcher lives.
// Claims carry that pid (`lease_owner`). When the process dies (kill -9, a crash, a lost network)
// its connection closes, PostgreSQL ends the session and the lock goes with it; any other
// dispatcher then finds rows whose owner holds no lock and releases them at once, instead of
// waiting out the lease (attempt timeout plus margin: 15 s by default, what issue 13 measured).
//
// Why a session and not a shorter lease renewed by a heartbeat: a heartbeat ties correctness to
// timing, so a live worker whose event loop or database round trip stalls past the lease loses its
// rows while it is still sending them (a duplicate in normal operation); a session is lost only
// when the connection is. The lease expiry stays as the fallback for what a session cannot see
// quickly (a host that vanished without closing its sockets: TCP keepalive decides) and for claims
// without an owner (the embedded database, a manual retry, a session that is reconnecting).
//
// The release runs on this same connection, so it also notices a session the server ended: the
// connection is dropped and reopened (under a new pid), and claims carry no owner until the lock is
// held again. A half-open connection is found by TCP keepalive.
import pg from 'pg';
import { backoffMs } from '../../infra/availability.js';

/** The advisory-lock class of dispatcher sessions (two-key form: this class, the session's pid). */
export const DISPATCHER_LOCK_CLASS = 0x7768_6b31;

const CONNECT_DEADLINE_MS = 5_000;
/** A release that takes longer is cancelled by the server (the next one tries again). */
const RELEASE_DEADLINE_MS = 5_000;

export interface LivenessSession {
  /** The backend pid a claim records while the session holds its lock; null while it does not. */
  owner(): number | null;
  /** Settles when the first attempt to take the lock has ended (held or not): claims wait for it. */
  readonly opened: Promise<void>;
  /**
   * Makes due at once every Pending delivery leased by a dispatcher whose session is gone. Only
   * leases within the longest lease from now are looked at (a lease is at most that far ahead), so
   * retries waiting hours ahead are never scanned. Returns how many were released.
   */
  releaseAbandoned(leaseMs: number): Promise<number>;
  /** Ends the session; its lock goes with it. */
  close(): Promise<void>;
}

// The live owners are read once (materialized) from the lock table rather than per row. The upper
// bound adds a minute to the lease for clock skew between this host and the database: claims stamp
// the lease with the worker's clock, the release compares with the server's.
const RELEASE_SQL = `
  with live as materialized (
    select pid from pg_locks where locktype = 'advisory' and classid = $1::oid and objsubid = 2 and granted
  )
  update webhook_deliveries set next_attempt_at = now(), lease_owner = null
  where status = 'Pending' and lease_owner is not null
    and next_attempt_at > now() and next_attempt_at < now() + ($2::int + 60000) * interval '1 millisecond'
    and lease_owner not in (select pid from live)`;

export function openLivenessSession(o: {
  connectionString: string;
  searchPath?: string | undefined;
  /** Shown as application_name, so an operator (and a test) can tell which process a session is. */
  name: string;
  onLost?: (err: unknown) => void;
}): LivenessSession {
  let client: pg.Client | undefined;
  let pid: number | null = null;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  let settleOpened: () => void = () => undefined;
  const opened = new Promise<void>((r) => {
    settleOpened = r;
  });

  const drop = (c: pg.Client, err: unknown): void => {
    if (client !== c) return;
    client = undefined;
    pid = null;
    c.end().catch(() => undefined);
    if (closed) return;
    o.onLost?.(err);
    retry = setTimeout(() => void open(), backoffMs(attempt++));
    retry.unref();
  };

  const open = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: o.connectionString,
      application_name: o.name,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: CONNECT_DEADLINE_MS,
      // The deadline of a release is the server's, never a client timer: a client timer fires when
      // this process's event loop stalls (seen at start-up on a loaded machine), and dropping a
      // healthy session would hand this worker's rows to others while it sends them.
      options: [`-c statement_timeout=${RELEASE_DEADLINE_MS}`, ...(o.searchPath ? [`-c search_path=${o.searchPath}`] : [])].join(' '),
    } as pg.ClientConfig);
    client = c;
    c.on('error', (err) => drop(c, err));
    c.on('end', () => drop(c, new Error('the dispatcher liveness session ended')));
    try {
      await c.connect();
      await c.query('select pg_advisory_lock($1::int, pg_backend_pid())', [DISPATCHER_LOCK_CLASS]);
      const r = await c.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (client !== c || closed) return void c.end().catch(() => undefined);
      pid = Number(r.rows[0]!.pid);
      attempt = 0;
    } catch (err) {
      drop(c, err);
    } finally {
      settleOpened();
    }
  };

  void open();

  return {
    owner: () => pid,
    opened,
    async releaseAbandoned(leaseMs) {
      const c = client;
      if (!c || pid === null) return 0;
      try {
        const r = await c.query(RELEASE_SQL, [DISPATCHER_LOCK_CLASS, Math.round(leaseMs)]);
        return r.rowCount ?? 0;
      } catch (err) {
        // The server cancelled a slow release: the session itself is fine, the next release retries.
        if ((err as { code?: string }).code === '57014') return 0;
        drop(c, err);
        return 0;
      }
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      pid = null;
      await c?.end().catch(() => undefined);
    },
  };
}
