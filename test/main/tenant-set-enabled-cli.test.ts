// `tenant set-enabled` as an operator runs it: on the embedded default directly and through a
// running server's admin API, and on PostgreSQL (when DATABASE_URL is set) from a CLI process
// while a server runs, so the server's principal cache must hear tenancy_changed. The company
// profile shows each change at once.
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, startServer, type ServerProcess } from '../helpers/processes.js';
import { processDatabaseEnv, TEST_DATABASE_URL } from '../helpers/db.js';

const dir = mkdtempSync(path.join(tmpdir(), 'travelog-set-enabled-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const setEnabled = (tenantId: string, ...flags: string[]) => ['tenant', 'set-enabled', '--tenant', tenantId, ...flags];

async function company(server: ServerProcess, key: string): Promise<{ enabledCountries: unknown; enabledCurrencies: unknown }> {
  const res = await fetch(`${server.baseUrl}/api/v1/company`, { headers: { authorization: `Bearer ${key}` } });
  return (await res.json()) as { enabledCountries: unknown; enabledCurrencies: unknown };
}

/** Refusals and a first change; returns the tenant id. */
async function directChecks(t: Test, env: Record<string, string | undefined>, refusal: boolean): Promise<string> {
  const tenant = await runCli(['tenant', 'create', '--name', 'Enabled d.o.o.', '--country', 'HR'], env);
  t.equal(tenant.code, 0, tenant.stderr);
  const id = tenant.json.tenantId as string;

  // Every refusal (unknown codes, blank lists, --all with a list, ...) is tested in-process in
  // test/http/routes/reference/company-enabled-lists.test.ts; one here shows the exit code and
  // stderr (each CLI run is a process that opens the database, so the runs are few).
  if (refusal) {
    const unknown = await runCli(setEnabled(id, '--countries', 'HR,QQ,si', '--currencies', 'EUR'), env);
    t.equal(unknown.code, 1);
    t.match(unknown.json, { error: { code: 'VALIDATION_FAILED', errors: { countries: [/QQ/] } } });
  }

  const set = await runCli(setEnabled(id, '--countries', 'si,HR,AT,XK,HR', '--currencies', 'usd,EUR'), env);
  t.equal(set.code, 0, set.stderr);
  t.same(
    set.json,
    { tenantId: id, enabledCountries: ['AT', 'HR', 'SI', 'XK'], enabledCurrencies: ['EUR', 'USD'] },
    'upper case, sorted, once',
  );
  return id;
}

/** Changes with a server running: each is visible in GET /company at once. */
async function serverChecks(t: Test, env: Record<string, string | undefined>, server: ServerProcess, tenantId: string): Promise<void> {
  const key = await runCli(['api-key', 'create', '--tenant', tenantId, '--scopes', 'read'], env);
  t.equal(key.code, 0, key.stderr);
  t.match(await company(server, key.json.key), { enabledCountries: ['AT', 'HR', 'SI', 'XK'], enabledCurrencies: ['EUR', 'USD'] });

  const onlyCountries = await runCli(setEnabled(tenantId, '--countries', 'HR'), env);
  t.same(onlyCountries.json, { tenantId, enabledCountries: ['HR'], enabledCurrencies: ['EUR', 'USD'] }, 'a list not named stays');
  t.match(await company(server, key.json.key), { enabledCountries: ['HR'], enabledCurrencies: ['EUR', 'USD'] }, 'seen at once');

  const all = await runCli(setEnabled(tenantId, '--all'), env);
  t.same(all.json, { tenantId, enabledCountries: null, enabledCurrencies: null });
  t.match(await company(server, key.json.key), { enabledCountries: null, enabledCurrencies: null });
}

t.test('embedded default: directly, then through the running server', async (t) => {
  const env = { DATA_DIR: path.join(dir, 'data'), DATABASE_URL: undefined };
  const tenantId = await directChecks(t, env, true);
  const server = await startServer(env);
  t.teardown(() => server.kill());
  await serverChecks(t, env, server, tenantId);
  t.equal(await server.stop('SIGTERM'), 0);
});

if (TEST_DATABASE_URL) {
  const env = processDatabaseEnv(t, 'travelog_set_enabled');
  t.test('PostgreSQL: the CLI changes the database itself while a server runs', async (t) => {
    const tenantId = await directChecks(t, env, false);
    const server = await startServer(env);
    t.teardown(() => server.kill());
    await serverChecks(t, env, server, tenantId);
    t.equal(await server.stop('SIGTERM'), 0);
  });
}
