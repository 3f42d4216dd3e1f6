// Migrating while other sessions drop their schemas (as parallel test files and tools do on a
// shared server): Kysely's own introspector lists the tables of every schema, and a schema or table
// dropped during that listing used to fail the migration (3F000, 42703, 42P01). Ours reads only the
// schema being migrated.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrate.js';
import { TEST_DATABASE_URL } from '../helpers/db.js';

t.test(
  'a migration survives other schemas being dropped meanwhile',
  { skip: !TEST_DATABASE_URL && 'needs a PostgreSQL server' },
  async (t) => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    t.teardown(() => admin.end());
    let churning = true;
    const churn = (async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      // Schemas with a table each, so the migrator's listing has rows to trip over.
      while (churning) {
        const s = `churn_${randomBytes(4).toString('hex')}`;
        await c.query(`create schema ${s}; create table ${s}.t (id serial primary key)`);
        await c.query(`drop schema ${s} cascade`);
      }
      await c.end();
    })();
    const failures: string[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        const schema = `mr_${randomBytes(5).toString('hex')}`;
        await admin.query(`create schema ${schema}`);
        const handle = await openDatabase({ databaseUrl: TEST_DATABASE_URL, dataDir: 'memory://', searchPath: schema, poolSize: 2 });
        try {
          await migrateToLatest(handle.db, schema);
        } catch (err) {
          failures.push((err as Error).message);
        } finally {
          await handle.close();
          await admin.query(`drop schema ${schema} cascade`);
        }
      }
    } finally {
      churning = false;
      await churn;
    }
    t.same(failures, [], '15 migrations, none failed');
  },
);
