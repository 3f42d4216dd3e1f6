// Schema migrations: Kysely migrations in src/infra/migrations, applied in file-name order.
// Every feature adds its own timestamp-prefixed file; nothing central needs editing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, type MigrationResultSet } from 'kysely/migration';
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

export async function migrateToLatest(db: Db, schema?: string): Promise<{ applied: string[] }> {
  const result: MigrationResultSet = await migrator(db, schema).migrateToLatest();
  if (result.error) throw result.error;
  return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
