// The migrated PGlite template the tests start from (test/helpers/pglite-template.ts): each copy is
// a whole migrated database of its own, the same as a freshly migrated cluster down to its columns,
// constraints, indexes, functions and triggers. Runs on PGlite whether or not DATABASE_URL is set.
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrate.js';
import { createTenant } from '../../src/tenancy/tenants.js';
import { migratedPgliteTemplate } from '../helpers/pglite-template.js';

/** The public schema's catalog as text: what a migration makes. */
async function catalog(h: DatabaseHandle): Promise<string[]> {
  const rows = async (q: ReturnType<typeof sql<{ x: string }>>) => (await q.execute(h.db)).rows.map((r) => r.x);
  return [
    ...(await rows(sql`select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as x
      from information_schema.columns where table_schema = 'public' order by 1`)),
    ...(await rows(sql`select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as x
      from pg_constraint where connamespace = 'public'::regnamespace order by 1`)),
    ...(await rows(sql`select indexdef as x from pg_indexes where schemaname = 'public' order by 1`)),
    ...(await rows(sql`select pg_get_functiondef(p.oid) as x from pg_proc p where pronamespace = 'public'::regnamespace order by 1`)),
    ...(await rows(
      sql`select tgrelid::regclass::text || ' ' || pg_get_triggerdef(oid) as x from pg_trigger where not tgisinternal order by 1`,
    )),
    ...(await rows(sql`select name as x from kysely_migration order by 1`)),
  ];
}

t.test('two copies of the template are migrated as a fresh cluster is, and independent of each other', async (t) => {
  const template = await migratedPgliteTemplate();
  const a = await openDatabase({ dataDir: 'memory://', pgliteSnapshot: template });
  t.teardown(() => a.close());
  const b = await openDatabase({ dataDir: 'memory://', pgliteSnapshot: template });
  t.teardown(() => b.close());
  const fresh = await openDatabase({ dataDir: 'memory://' });
  t.teardown(() => fresh.close());
  await migrateToLatest(fresh.db);
  const expected = await catalog(fresh);
  t.ok(expected.length > 100, 'the fingerprint holds the schema');
  t.same(await catalog(a), expected, 'a copy has every column, constraint, index, function, trigger and migration');
  t.same(await migrateToLatest(a.db), { applied: [] }, 'nothing is left to migrate');
  await createTenant(a.db, { name: 'Only in A d.o.o.', country: 'HR' });
  const count = async (h: DatabaseHandle) =>
    Number((await sql<{ n: number }>`select count(*)::int as n from tenants`.execute(h.db)).rows[0]!.n);
  t.equal(await count(a), 1);
  t.equal(await count(b), 0, 'a write to one copy is not in the other');
});

t.test('a damaged template file is made again', async (t) => {
  // A temp directory of its own, and a module instance of its own: the suite's template is not touched.
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-test-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  t.teardown(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  const ownInstance = '../helpers/pglite-template.js?damaged';
  const own = (await import(ownInstance)) as typeof import('../helpers/pglite-template.js');
  const path = own.templatePath();
  t.ok(path.startsWith(dir));
  writeFileSync(path, 'not a data directory');
  const handle = await own.openMigratedPglite();
  t.teardown(() => handle.close());
  t.ok(statSync(path).size > 1_000_000, 'the file holds a whole template again');
  t.not(readFileSync(path, 'utf8').slice(0, 20), 'not a data directory');
  await createTenant(handle.db, { name: 'Works d.o.o.', country: 'HR' });
});

t.test('a snapshot starts an in-memory database only', async (t) => {
  await t.rejects(openDatabase({ dataDir: '/nonexistent-on-purpose', pgliteSnapshot: new Blob([]) }), /in-memory database only/);
});
