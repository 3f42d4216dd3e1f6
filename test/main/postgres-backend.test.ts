// The CLI and `npm start` on a PostgreSQL server: the CLI opens the database itself, also while a
// server runs; SIGTERM lets an in-flight request finish before the process exits. Runs when the
// suite runs on PostgreSQL (DATABASE_URL), in a database of its own.
import t from 'tap';
import http from 'node:http';
import { runCli, startServer } from '../helpers/processes.js';
import { processDatabaseEnv, TEST_DATABASE_URL } from '../helpers/db.js';

if (!TEST_DATABASE_URL) {
  t.skip('the PostgreSQL-backend process tests need DATABASE_URL (CI sets it)', async () => undefined);
} else {
  const env = processDatabaseEnv(t, 'travelog_e2e');

  t.test('CLI and server on PostgreSQL; SIGTERM drains an in-flight request', async (t) => {
    const tenant = await runCli(['tenant', 'create', '--name', 'Pg d.o.o.', '--country', 'CZ'], env);
    t.equal(tenant.code, 0, tenant.stderr);
    t.match(tenant.json, { baseCurrency: 'CZK' });
    const server = await startServer(env);
    t.teardown(() => server.kill());
    const key = await runCli(['api-key', 'create', '--tenant', tenant.json.tenantId, '--scopes', 'read,write'], env);
    t.equal(key.code, 0, 'the CLI works while the server runs');
    t.match((await runCli(['projections', 'status'], env)).json, {
      projections: [{ name: 'employees' }, { name: 'travel-entries' }, { name: 'payout-batches' }],
    });

    // A request whose body is still arriving when SIGTERM comes must be answered, then the process exits.
    const body = JSON.stringify({ firstName: 'Late', lastName: 'Body' });
    const { port } = new URL(server.baseUrl);
    const answered = new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/v1/employees',
          method: 'POST',
          headers: {
            authorization: `Bearer ${key.json.key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode!, text, connection: res.headers.connection }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 300);
    });
    const res = await answered;
    t.equal(res.status, 201, `the in-flight request finished: ${res.text}`);
    t.equal(res.connection, 'close', 'a response during shutdown releases its keep-alive connection');
    t.equal(await server.exited, 0, 'then the process exited cleanly');
  });
}
