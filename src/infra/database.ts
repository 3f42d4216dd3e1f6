// The one PostgreSQL handle of a process: a pg pool on a real server, or PGlite in-process (the
// embedded default). Both speak the same SQL, so every query in the codebase runs on either.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, PGliteDialect } from 'kysely';
import pg from 'pg';
import { registerPool } from './prepared.js';

/**
 * Every table of the read side, the event store and the webhook outbox. Feature modules add their
 * tables by augmenting this interface from their own `table.ts` (declaration merging), so a new
 * read model never has to edit a central file.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database {}

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: Db;
  readonly kind: 'postgres' | 'pglite';
  /** Present on a real server: LISTEN needs a dedicated client outside the pool. */
  readonly connectionString: string | undefined;
  readonly searchPath: string | undefined;
  /** Present on the embedded default: LISTEN goes through the instance itself. */
  readonly pglite: import('@electric-sql/pglite').PGlite | undefined;
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
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl !== undefined) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      types: pgTypes,
      // An idle-in-transaction session would hold back pg_snapshot_xmin and stall every
      // subscription (projection lag, not loss); never let one linger.
      options: `-c idle_in_transaction_session_timeout=60000${opts.searchPath ? ` -c search_path=${opts.searchPath}` : ''}`,
    } as pg.PoolConfig);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    registerPool(db, pool);
    return { db, kind: 'postgres', connectionString: opts.databaseUrl, searchPath: opts.searchPath, pglite: undefined, close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = join(opts.dataDir, 'pglite');
  if (opts.dataDir !== 'memory://') mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(opts.dataDir === 'memory://' ? 'memory://' : dir);
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return { db, kind: 'pglite', connectionString: undefined, searchPath: undefined, pglite, close: () => db.destroy() };
}
