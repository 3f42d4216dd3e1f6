// A Kysely dialect for the embedded database (PGlite): PostgreSQL's adapter, introspector and
// query compiler from Kysely itself, over our own driver. Kysely's PGlite dialect exists only in
// versions that need Node 22, and we run on Node 20.19 too (docs/decisions.md).
import {
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
} from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { PGliteDriver } from './pglite-driver.js';

export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}
