// Migrating while other sessions drop their schemas (as parallel test files and tools do on a
// shared server): Kysely's migrator lists the tables of every schema, and a schema dropped during
// that listing used to fail the migration with 3F000 naming the other schema.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/infra/database.js';
import { isListingRace, migrateToLatest } from '../../src/infra/migrate.js';
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

t.test(
  'only the listing races are taken for one: the errors PostgreSQL raises for them, not the same codes elsewhere',
  { skip: !TEST_DATABASE_URL && 'needs a PostgreSQL server' },
  async (t) => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    t.teardown(() => c.end());
    const errorOf = (text: string): Promise<unknown> =>
      c.query(text).then(
        () => t.fail(`${text} did not fail`),
        (err: unknown) => err,
      );
    // What the listing meets when another session drops a table or a schema under it.
    t.ok(
      isListingRace(await errorOf(`select pg_get_serial_sequence('pg_class', 'gone')`), 'ours'),
      'a dropped table: 42703 from pg_get_serial_sequence',
    );
    t.ok(isListingRace(await errorOf(`select 'gone_schema.t'::regclass`), 'ours'), 'another schema gone: 3F000 naming it');
    t.ok(
      isListingRace(await errorOf(`select pg_get_serial_sequence('public.gone_table', 'id')`), 'ours'),
      "another schema's table gone: 42P01 naming it with its schema",
    );
    t.notOk(
      isListingRace(await errorOf(`select pg_get_serial_sequence('public.gone_table', 'id')`), 'public'),
      'a table of our own schema gone is a real error',
    );
    t.notOk(isListingRace(await errorOf('select * from gone_table'), 'ours'), 'so is a missing table named without a schema');
    // Not races: our own schema gone, and a missing column anywhere else.
    t.notOk(isListingRace(await errorOf(`select 'ours.t'::regclass`), 'ours'), 'our own schema gone is a real error');
    t.notOk(isListingRace(await errorOf('select gone from pg_class'), 'ours'), 'a missing column in a statement is a real error');
  },
);
