// End to end, as an operator uses it: the CLI with no server, `npm start` on the embedded
// default with the CLI going through the loopback admin API, a graceful SIGTERM, and a restart
// that keeps the data. The embedded default is itself under test here, so this runs on PGlite.
import t from 'tap';
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, startServer } from '../helpers/processes.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'travelog-e2e-'));
const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

t.test('the CLI works without a server', async (t) => {
  const bad = await runCli(['tenant', 'create', '--name', 'Acme', '--country', 'DE'], env);
  t.equal(bad.code, 1);
  t.match(bad.json, { error: { code: 'VALIDATION_FAILED', errors: { country: [/HR, SI, CZ, SK/] } } });
  const usage = await runCli(['tenant', 'explode'], env);
  t.equal(usage.code, 2);
  t.match(usage.stderr, /Usage: npm run cli/);
  // A command named after an Object.prototype member is unknown too (it found Object's constructor).
  const inherited = await runCli(['constructor'], env);
  t.same([inherited.code, /Unknown command "constructor"/.test(inherited.stderr)], [2, true], inherited.stderr);
  // parseArgs keeps the last of a repeated option: the operator is asked which one was meant.
  const twice = await runCli(['tenant', 'create', '--name', 'A', '--country', 'HR', '--name', 'B'], env);
  t.same([twice.code, /--name given more than once/.test(twice.stderr)], [2, true], twice.stderr);
  const extra = await runCli(['tenant', 'create', 'Acme', '--country', 'HR'], env);
  t.same([extra.code, /Unexpected argument "Acme" after "tenant create"/.test(extra.stderr)], [2, true], extra.stderr);

  const tenant = await runCli(['tenant', 'create', '--name', 'Acme d.o.o.', '--country', 'HR'], env);
  t.equal(tenant.code, 0, tenant.stderr);
  t.match(tenant.json, { tenantId: /^[0-9a-f-]{36}$/, baseCurrency: 'EUR' });
  const key = await runCli(['api-key', 'create', '--tenant', tenant.json.tenantId, '--name', 'erp', '--scopes', 'read,write'], env);
  t.match(key.json, { apiKeyId: /^[0-9a-f-]{36}$/, key: /^tvl_[A-Za-z0-9]{8}_/, scopes: ['read', 'write'] });
  const wf = await runCli(
    ['tenant', 'set-workflow', '--tenant', tenant.json.tenantId, '--steps', '[{"approverIds":["6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a10"]}]'],
    env,
  );
  t.same(wf.json.workflow, { steps: [{ approverIds: ['6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a10'] }] });
  t.same((await runCli(['tenant', 'set-workflow', '--tenant', tenant.json.tenantId, '--none'], env)).json.workflow, null);
  t.match((await runCli(['migrate'], env)).json, { applied: [] });
  t.match((await runCli(['projections', 'rebuild'], env)).json, { rebuilt: Array });
  const revoked = await runCli(['api-key', 'revoke', '--id', key.json.apiKeyId], env);
  t.match(revoked.json, { apiKeyId: key.json.apiKeyId, revokedAt: String });
  t.equal((await runCli(['api-key', 'revoke', '--id', key.json.apiKeyId], env)).json.error.code, 'API_KEY_NOT_FOUND');
});

t.test('npm start serves the API, the CLI goes through it, and data survives a restart', async (t) => {
  const server = await startServer(env);
  t.teardown(() => server.kill());
  t.ok(existsSync(path.join(dataDir, 'admin.json')), 'the admin endpoint is published in DATA_DIR');
  t.ok(existsSync(path.join(dataDir, 'secrets.key')), 'the secrets key was generated into DATA_DIR');

  const tenant = await runCli(['tenant', 'create', '--name', 'Running d.o.o.', '--country', 'SI'], env);
  t.equal(tenant.code, 0, tenant.stderr);
  const key = await runCli(['api-key', 'create', '--tenant', tenant.json.tenantId], env);
  t.same(key.json.scopes, ['read', 'write', 'webhooks', 'audit'], 'all scopes when none are named');
  const company = await fetch(`${server.baseUrl}/api/v1/company`, { headers: { authorization: `Bearer ${key.json.key}` } });
  t.equal(company.status, 200);
  t.match(await company.json(), { id: tenant.json.tenantId, country: 'SI', exchangeRateProvider: 'ECB' });

  const code = await server.stop('SIGTERM');
  t.equal(code, 0, 'SIGTERM is a clean exit');
  t.match(server.logs.join(''), /"msg":"stopped"/);
  t.notOk(existsSync(path.join(dataDir, 'admin.json')), 'the admin endpoint is withdrawn');

  const again = await startServer(env);
  t.teardown(() => again.kill());
  const after = await fetch(`${again.baseUrl}/api/v1/company`, { headers: { authorization: `Bearer ${key.json.key}` } });
  t.equal(after.status, 200, 'the tenant and key survived the restart');
  t.equal(await again.stop('SIGTERM'), 0);
});
