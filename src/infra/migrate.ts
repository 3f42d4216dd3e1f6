// Schema migrations: Kysely migrations in src/infra/migrations, applied in file-name order.
// Every feature adds its own timestamp-prefixed file; nothing central needs editing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, type MigrationResultSet } from 'kysely';
import type { Db } from './database.js';

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * `schema` pins Kysely's migration bookkeeping to the schema being migrated: without it the
 * migrator looks for its lock table in any schema on the search path and can find another
 * database user's (seen with parallel test processes on one server).
 */
export function migrator(db: Db, schema?: string): Migrator {
  return new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: folder }),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/**
 * Kysely's migrator looks for its table by listing the tables of every schema in the database. A
 * schema that another session drops during that listing makes it fail with 3F000 naming that
 * other schema (seen in CI: test files drop their schemas while others migrate). Nothing of ours
 * is wrong then, and migrating is idempotent under the migrator's lock, so it is tried again.
 */
// Five retries without a pause were not always enough against a session that creates and drops
// schemas in a tight loop (a CI flake on a busy machine): each retry now waits a few milliseconds
// (random, so it does not fall into step with the other session) and there are more of them.
const LISTING_RACE_RETRIES = 30;
const pause = (): Promise<void> => new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 45)));

// The same listing also reads each table's serial sequence (pg_get_serial_sequence): a table that
// another session drops meanwhile makes that call fail with 42703, naming a column of the vanished
// table (seen in CI, session 10), or with 42P01, naming the vanished table with its schema (seen in
// CI, session 12). Our own tables are not dropped under our feet, so both are listing races too, and
// tried again the same way; a 42P01 naming our own schema, or no schema, is a real error.
/** Whether a failed migration met another session's drop during the migrator's listing (retried). */
export function isListingRace(err: unknown, schema: string | undefined): boolean {
  const e = err as { code?: unknown; message?: unknown; routine?: unknown } | null;
  if (e?.code === '42703' && e.routine === 'pg_get_serial_sequence') return true;
  if (typeof e?.message !== 'string') return false;
  const otherSchema = (named: string | undefined): boolean => named !== undefined && named !== schema;
  if (e.code === '42P01') return otherSchema(/^relation "([^".]+)\.[^"]+" does not exist$/.exec(e.message)?.[1]);
  return e.code === '3F000' && (schema === undefined || !e.message.includes(`"${schema}"`));
}

export async function migrateToLatest(db: Db, schema?: string): Promise<{ applied: string[] }> {
  for (let attempt = 1; ; attempt++) {
    const result: MigrationResultSet = await migrator(db, schema).migrateToLatest();
    if (!result.error) return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
    if (attempt > LISTING_RACE_RETRIES || !isListingRace(result.error, schema)) throw result.error;
    await pause();
  }
}
