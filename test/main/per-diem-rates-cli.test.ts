// `per-diem-rates import` as an operator runs it: on the embedded default directly and through a
// running server's admin API, and on PostgreSQL (when DATABASE_URL is set). A refused file exits 1
// with the errors keyed by file line on stderr. Each CLI run is a process that opens the database,
// so the runs are few.
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, startServer } from '../helpers/processes.js';
import { processDatabaseEnv, TEST_DATABASE_URL } from '../helpers/db.js';

const dir = mkdtempSync(path.join(tmpdir(), 'travelog-per-diem-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = 'law,validFrom,validTo,countryCode,countryName,rate,currency,source';
function file(name: string, ...lines: string[]): string {
  const p = path.join(dir, name);
  writeFileSync(p, [HEADER, ...lines].join('\n') + '\n');
  return p;
}
const good = file('hr-2024.csv', 'HR,2024-02-08,,DE,Savezna Republika Njemačka,70,EUR,hr-nn-2024');
const bad = file('hr-bad.csv', 'HR,2024-02-08,,DE,Njemačka,70,EUR,s', 'HR,2024-02-08,,DE,Njemačka,70.001,EUR,s');
const importHr = (f: string) => ['per-diem-rates', 'import', '--law', 'HR', '--valid-from', '2024-02-08', '--file', f];

async function directChecks(t: Test, env: Record<string, string | undefined>): Promise<void> {
  const refused = await runCli(importHr(bad), env);
  t.equal(refused.code, 1);
  t.match(refused.json, {
    error: {
      code: 'VALIDATION_FAILED',
      errors: { 'line 3': [/^countryCode: DE is already on line 2/, /^rate: At most 2 decimal places/] },
    },
  });
  const ok = await runCli([...importHr(good), '--complete'], env);
  t.equal(ok.code, 0, ok.stderr);
  t.same(ok.json, { law: 'HR', validFrom: '2024-02-08', validTo: null, complete: true, rows: 1, recorded: true, revision: 0 });
}

t.test('embedded default: directly, then through the running server', async (t) => {
  const env = { DATA_DIR: path.join(dir, 'data'), DATABASE_URL: undefined };
  await directChecks(t, env);
  const server = await startServer(env);
  t.teardown(() => server.kill());
  const again = await runCli(importHr(good), env);
  t.equal(again.code, 0, again.stderr);
  t.match(again.json, { complete: true, recorded: false, revision: 0 }, 'the server sees the import the CLI made before it started');
  const refused = await runCli(importHr(bad), env);
  t.equal(refused.code, 1);
  t.match(refused.json, { error: { errors: { 'line 3': Array } } }, 'line-numbered errors through the admin API too');
  t.equal(await server.stop('SIGTERM'), 0);
});

if (TEST_DATABASE_URL) {
  const env = processDatabaseEnv(t, 'travelog_per_diem');
  t.test('PostgreSQL: the CLI opens the database itself', async (t) => {
    await directChecks(t, env);
  });
}
