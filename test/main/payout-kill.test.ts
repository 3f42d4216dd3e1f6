// Issue 7, item 2: kill -9 a real server process while it runs a 400-entry payout batch. Before
// the batch process, the batch listed all 400 entries with a handful paid, nothing repaired it,
// and a new batch could take the same entries. Now, after a restart, the batch settles by itself
// (the resumer in the api role) with exactly the entries paid in it, and no entry is in two
// batches. PostgreSQL only: the embedded database is opened by one process, and the test needs
// a second connection to watch the event store while the server works.
import t from 'tap';
import pg from 'pg';
import { runCli, startServer, type ServerProcess } from '../helpers/processes.js';
import { processDatabaseEnv, TEST_DATABASE_URL } from '../helpers/db.js';

const ENTRIES = 400;

if (!TEST_DATABASE_URL) {
  t.skip(
    'the kill -9 payout test runs a server process on PostgreSQL (DATABASE_URL); PGlite cannot be shared with the watching test',
    async () => undefined,
  );
} else {
  const env = processDatabaseEnv(t, 'travelog_payout_kill');

  t.test('a batch killed mid-way converges after restart without an operator', { timeout: 600_000 }, async (t) => {
    const tenant = await runCli(['tenant', 'create', '--name', 'Kill d.o.o.', '--country', 'HR'], env);
    t.equal(tenant.code, 0, tenant.stderr);
    const key = (await runCli(['api-key', 'create', '--tenant', tenant.json.tenantId, '--scopes', 'read,write'], env)).json.key as string;
    let server: ServerProcess = await startServer(env, 180_000);
    t.teardown(() => server.kill());
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await r.text();
      return { status: r.status, text, body: text ? JSON.parse(text) : undefined };
    };

    const emp = (await call('POST', '/api/v1/employees', { firstName: 'Kill', lastName: 'Nine' })).body.id as string;
    const entryIds: string[] = [];
    for (let i = 0; i < ENTRIES; i += 8) {
      entryIds.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(8, ENTRIES - i) }, async () => {
            const e = await call('POST', '/api/v1/travel-entries', {
              employeeId: emp,
              departureDate: '2025-04-14',
              returnDate: '2025-04-15',
              travelType: 'Domestic',
              currencyCode: 'EUR',
            });
            if (e.status !== 201) throw new Error(e.text);
            const s = await call('POST', `/api/v1/travel-entries/${e.body.id}/submit`);
            if (s.body.status !== 'Approved') throw new Error(s.text);
            return e.body.id as string;
          }),
        )),
      );
    }

    // Watch the event store from outside and kill -9 as soon as the batch has paid its first entries.
    const watch = new pg.Client({ connectionString: env.DATABASE_URL });
    await watch.connect();
    t.teardown(() => watch.end());
    const count = async (type: string) =>
      Number((await watch.query('select count(*)::int as n from es_events where type = $1', [type])).rows[0].n);
    const posting = call('POST', '/api/v1/payouts/batches', { entryIds, payoutMethod: 'BankTransfer', payoutDate: '2025-04-30' }).catch(
      (err: unknown) => err,
    );
    let settledEarly = false;
    void posting.then(() => {
      settledEarly = true;
    });
    const deadline = Date.now() + 120_000;
    while ((await count('TravelEntryPaidOut')) < 5) {
      if (settledEarly) throw new Error(`the batch request ended before the kill: ${String(await posting)}`);
      if (Date.now() > deadline) throw new Error('the batch paid fewer than 5 entries in 120 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    server.kill();
    await server.exited;
    t.ok((await posting) instanceof Error, 'the request died with the process');
    const paidAtKill = await count('TravelEntryPaidOut');
    t.ok(paidAtKill > 0 && paidAtKill < ENTRIES, `the batch was half applied at the kill (${paidAtKill} of ${ENTRIES} paid)`);
    t.equal(await count('PayoutBatchSettled'), 0, 'and not settled');
    const batchId = (await watch.query(`select data->>'batchId' as id from es_events where type = 'PayoutBatchCreated'`)).rows[0]
      .id as string;

    server = await startServer(env, 180_000);
    let batch: any;
    for (let i = 0; i < 180; i++) {
      batch = (await call('GET', `/api/v1/payouts/batches/${batchId}`)).body;
      if (batch?.status && batch.status !== 'Processing') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    t.equal(batch.status, 'Created', 'the batch settled by itself after the restart');
    t.equal(batch.entryIds.length + (batch.rejectedEntries ?? []).length, ENTRIES, 'every requested entry has an outcome');
    t.ok(
      (batch.rejectedEntries ?? []).every((r: { code: string }) => r.code === 'NOT_REACHED'),
      'the others were not reached',
    );

    // The entry streams agree with the batch: exactly its entryIds are paid, in it.
    const paid = new Set<string>();
    for (let page = 1; ; page++) {
      const r = (await call('GET', `/api/v1/travel-entries?page=${page}&pageSize=200`)).body;
      for (const e of r.items) if (e.isPaidOut && e.payoutBatchId === batchId) paid.add(e.id);
      if (page * 200 >= r.total) break;
    }
    t.strictSame([...paid].sort(), [...batch.entryIds].sort(), 'the batch lists exactly the entries paid in it');

    const again = await call('POST', '/api/v1/payouts/batches', {
      entryIds: batch.entryIds.slice(0, 3),
      payoutMethod: 'Cash',
      payoutDate: '2025-05-01',
    });
    t.equal(again.status, 409, 'a new batch cannot take its entries');
    const rest = (batch.rejectedEntries ?? []).map((r: { entryId: string }) => r.entryId);
    const second = await call('POST', '/api/v1/payouts/batches', { entryIds: rest, payoutMethod: 'Cash', payoutDate: '2025-05-01' });
    t.equal(second.status, 201, second.status === 201 ? 'a new batch takes the entries it did not take' : second.text);
    t.strictSame(second.body.entryIds, rest, 'the entries it did not take are free for a new batch');
    const history = (await call('GET', '/api/v1/payouts/batches')).body.items as Array<{ entryIds: string[] }>;
    const all = history.flatMap((b) => b.entryIds);
    t.equal(new Set(all).size, all.length, 'no entry is in two batches');
    t.equal(all.length, ENTRIES);
  });
}
