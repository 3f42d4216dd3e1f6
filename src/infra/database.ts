// The one PostgreSQL handle of a process: a pg pool on a real server, or PGlite in-process (the
// embedded default). Both speak the same SQL, so every query in the codebase runs on either.
import { mkdirSync } from 'node:fs';
import { lockDataDir } from './data-dir-lock.js';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { registerPool } from './prepared.js';
import type { Database } from './schema.js';

/** The tables, listed in src/infra/schema.ts; re-exported so a query module needs one import. */
export type { Database };

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: Db;
  readonly kind: 'postgres' | 'pglite';
  /** Present on a real server: LISTEN needs a dedicated client outside the pool. */
  readonly connectionString: string | undefined;
  readonly searchPath: string | undefined;
  /** Present on the embedded default: LISTEN goes through the instance itself. */
  readonly pglite: import('@electric-sql/pglite').PGlite | undefined;
  /**
   * Runs `work` on a short-lived one-connection database without the statement bounds (migrations,
   * which may legitimately run longer than any request). The embedded database has no bounds: `db`.
   */
  unbounded<T>(work: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// int8 columns (positions, counters) fit in a double for any realistic store; reading them as
// numbers on both engines keeps one code path (PGlite already does, node-postgres gives strings).
const INT8_OID = 20;
const pgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
};

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** A directory, or 'memory://' for a throw-away embedded database. */
  dataDir: string;
  poolSize?: number;
  /** Isolates a test run in its own schema on a shared server. */
  searchPath?: string;
  /** Bounds (docs/operations.md): a lost or frozen server fails a query instead of hanging it. */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  /** Connection errors that have no query to fail (an idle pooled connection dropped). */
  onConnectionError?: (err: unknown) => void;
  /**
   * An embedded database in memory starts as a copy of this data directory (PGlite's dumpDataDir)
   * instead of a new cluster: about 0.6 s instead of 3-5 s of initdb (the tests' migrated template).
   */
  pgliteSnapshot?: Blob;
}

/**
 * A query that hit the client deadline leaves its connection waiting for an answer that may never
 * come (a black-holed server): marked unqueryable, the pool closes it on release instead of handing
 * it to the next request, which would queue behind the lost query.
 */
function retireOnClientDeadline(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(undefined, (err: unknown) => {
        if ((err as Error | undefined)?.message === 'Query read timeout') (client as unknown as { _queryable: boolean })._queryable = false;
      });
    }
    return result;
  };
}

/**
 * The client-side deadline is the server's statement_timeout plus this margin: normally the server
 * cancels first and the connection stays usable; only a server that does not answer at all (frozen,
 * half-open TCP) reaches the client deadline.
 */
export const CLIENT_DEADLINE_MARGIN_MS = 2_000;

function serverPool(opts: OpenDatabaseOptions, bounded: boolean, max: number): pg.Pool {
  const statementMs = opts.statementTimeoutMs ?? 30_000;
  const settings = [
    `-c idle_in_transaction_session_timeout=${opts.idleInTransactionTimeoutMs ?? 60_000}`,
    `-c statement_timeout=${bounded ? statementMs : 0}`,
    ...(opts.searchPath ? [`-c search_path=${opts.searchPath}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString: opts.databaseUrl,
    max,
    types: pgTypes,
    // Also bounds the wait for a free pooled connection, so a pool stuck on a frozen server fails fast.
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(bounded ? { query_timeout: statementMs + CLIENT_DEADLINE_MARGIN_MS } : {}),
    // An idle-in-transaction session would hold back pg_snapshot_xmin and stall every
    // subscription (projection lag, not loss); never let one linger.
    options: settings.join(' '),
  } as pg.PoolConfig);
  // Without these a terminated backend or a PostgreSQL restart is an 'error' event with no listener:
  // an uncaught exception that ends the process. The pool drops the broken client by itself; a
  // client checked out between two queries (inside a transaction) reports on its own emitter.
  const report = (err: unknown): void => opts.onConnectionError?.(err);
  pool.on('error', report);
  pool.on('connect', (client) => {
    client.on('error', report);
    retireOnClientDeadline(client);
  });
  return pool;
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl !== undefined) {
    const pool = serverPool(opts, true, opts.poolSize ?? 20);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    registerPool(db, pool);
    const unbounded = async <T>(work: (db: Db) => Promise<T>): Promise<T> => {
      const once = new Kysely<Database>({ dialect: new PostgresDialect({ pool: serverPool(opts, false, 1) }) });
      try {
        return await work(once);
      } finally {
        await once.destroy();
      }
    };
    return {
      db,
      kind: 'postgres',
      connectionString: opts.databaseUrl,
      searchPath: opts.searchPath,
      pglite: undefined,
      unbounded,
      close: () => db.destroy(),
    };
  }
  const inMemory = opts.dataDir === 'memory://';
  if (opts.pgliteSnapshot && !inMemory) throw new Error('a PGlite snapshot starts an in-memory database only');
  // Loaded only here: a process on a server never loads PGlite's WebAssembly build.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('./pglite-dialect.js');
  const dir = join(opts.dataDir, 'pglite');
  if (!inMemory) mkdirSync(dir, { recursive: true });
  // Claimed before PGlite opens it: a second process must not (data-dir-lock.ts).
  const lock = inMemory ? undefined : lockDataDir(opts.dataDir);
  let pglite;
  try {
    pglite = inMemory
      ? await PGlite.create('memory://', opts.pgliteSnapshot ? { loadDataDir: opts.pgliteSnapshot } : {})
      : await PGlite.create(dir);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    connectionString: undefined,
    searchPath: undefined,
    pglite,
    unbounded: (work) => work(db),
    close: async () => {
      try {
        await db.destroy();
      } finally {
        lock?.release();
      }
    },
  };
}
