// Schema migrations: Kysely migrations in src/infra/migrations, applied in file-name order.
// Every feature adds its own timestamp-prefixed file; nothing central needs editing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, sql, type DatabaseIntrospector, type TableMetadata } from 'kysely';
import type { Db } from './database.js';

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * `schema` pins Kysely's migration bookkeeping to the schema being migrated: without it the
 * migrator looks for its lock table in any schema on the search path and can find another
 * database user's (seen with parallel test processes on one server).
 */
export function migrator(db: Db, schema?: string): Migrator {
  return new Migrator({
    db: withOwnSchemaIntrospection(db, schema),
    provider: new FileMigrationProvider({ fs, path, migrationFolder: folder }),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

export async function migrateToLatest(db: Db, schema?: string): Promise<{ applied: string[] }> {
  const result = await migrator(db, schema).migrateToLatest();
  if (result.error) throw result.error;
  return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/**
 * The migrator asks the introspector only whether its schema and its two tables exist. Kysely's
 * PostgreSQL introspector answers that by listing every table of every schema, with each one's
 * serial sequences, so a schema or table that another session dropped during the listing failed our
 * migration (3F000, 42703 and 42P01 were all seen in CI, where test files drop their schemas while
 * others migrate). This one reads the catalog of our schema alone (the search path's first when
 * none is named, where the migrator then creates its tables), so other sessions cannot reach it.
 */
function withOwnSchemaIntrospection(db: Db, schema: string | undefined): Db {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = ${schema ?? null}`.execute(db);
      return rows;
    },
    getTables: async () => {
      const { rows } = await sql<{ name: string; schema: string }>`
        select c.relname as name, n.nspname as schema
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = coalesce(${schema ?? null}, current_schema()) and c.relkind in ('r', 'p')`.execute(db);
      return rows.map((r): TableMetadata => ({ ...r, isView: false, columns: [] }));
    },
    getMetadata: async () => ({ tables: await introspection.getTables() }),
  };
  // A proxy, not a copy: Kysely keeps its state in private fields, so everything else is the real
  // instance's own member, bound to it.
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
