// The migrated PGlite template the tests start from (test/helpers/pglite-template.ts): each copy is
// a whole migrated database of its own. Runs on PGlite whether or not DATABASE_URL is set.
import t from 'tap';
import { sql } from 'kysely';
import { openDatabase } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrate.js';
import { createTenant } from '../../src/tenancy/tenants.js';
import { migratedPgliteTemplate } from '../helpers/pglite-template.js';

t.test('two copies of the template are migrated, and independent of each other', async (t) => {
  const template = await migratedPgliteTemplate();
  const a = await openDatabase({ dataDir: 'memory://', pgliteSnapshot: template });
  const b = await openDatabase({ dataDir: 'memory://', pgliteSnapshot: template });
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const fresh = await openDatabase({ dataDir: 'memory://' });
  t.teardown(() => fresh.close());
  await migrateToLatest(fresh.db);
  const tables = async (h: typeof a) =>
    (
      await sql<{
        name: string;
      }>`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`.execute(h.db)
    ).rows.map((r) => r.name);
  t.same(await tables(a), await tables(fresh), 'a copy has every table a freshly migrated database has');
  await createTenant(a.db, { name: 'Only in A d.o.o.', country: 'HR' });
  const count = async (h: typeof a) => Number((await sql<{ n: number }>`select count(*)::int as n from tenants`.execute(h.db)).rows[0]!.n);
  t.equal(await count(a), 1);
  t.equal(await count(b), 0, 'a write to one copy is not in the other');
});

t.test('a snapshot starts an in-memory database only', async (t) => {
  await t.rejects(openDatabase({ dataDir: '/nonexistent-on-purpose', pgliteSnapshot: new Blob([]) }), /in-memory database only/);
});
