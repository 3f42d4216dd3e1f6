// A fresh database for one test file: its own schema on the machine's PostgreSQL when
// DATABASE_URL is set (CI runs the suite that way), otherwise an in-memory PGlite.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrate.js';
import { openMigratedPglite } from './pglite-template.js';

export const TEST_DATABASE_URL = process.env.DATABASE_URL;

export async function openTestDatabase(
  t: { teardown(fn: () => unknown): void },
  opts: { poolSize?: number } = {},
): Promise<DatabaseHandle> {
  if (TEST_DATABASE_URL === undefined) {
    const handle = await openMigratedPglite();
    t.teardown(() => handle.close());
    return handle;
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = await openDatabase({
    databaseUrl: TEST_DATABASE_URL,
    dataDir: 'memory://',
    searchPath: schema,
    poolSize: opts.poolSize ?? 10,
  });
  t.teardown(async () => {
    await handle.close();
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`drop schema ${schema} cascade`);
    await c.end();
  });
  await migrateToLatest(handle.db, schema);
  return handle;
}

/**
 * The environment of a server process (`npm start`, the CLI) on a PostgreSQL database of its own,
 * created before the file's tests and dropped after them: a process test needs a whole database,
 * since the server opens it with its own search path. Only when DATABASE_URL is set.
 */
/** Runs one statement on the shared server's database (creating or dropping a process's own database). */
async function onServer(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

const ownDatabase = (prefix: string) => {
  if (TEST_DATABASE_URL === undefined) throw new Error('a database of its own needs DATABASE_URL');
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
};

/**
 * A database of its own on the shared server, created now and dropped when the test ends: for a
 * test that starts real processes which must migrate a fresh installation.
 */
export async function createOwnDatabase(t: { teardown(fn: () => unknown): void }, prefix: string): Promise<string> {
  const db = ownDatabase(prefix);
  await onServer(`create database ${db.name}`);
  t.teardown(() => onServer(`drop database if exists ${db.name} with (force)`));
  return db.url;
}

export function processDatabaseEnv(
  t: { before(fn: () => unknown): void; teardown(fn: () => unknown): void },
  prefix: string,
): Record<string, string> {
  const db = ownDatabase(prefix);
  t.before(() => onServer(`create database ${db.name}`));
  t.teardown(() => onServer(`drop database if exists ${db.name} with (force)`));
  return { DATABASE_URL: db.url, SECRETS_KEY: randomBytes(32).toString('hex'), DATA_DIR: '/nonexistent-on-purpose' };
}
