// Stored idempotent responses are sealed: the raw row in idempotency_keys holds no IBAN or tax id,
// and the replay is byte-identical to the first response. A row stored in plain text by an earlier
// version still replays.
import t from 'tap';
import { sql } from 'kysely';
import { startTestApp } from '../../helpers/app.js';

const employee = {
  firstName: 'Iva',
  lastName: 'Marić',
  email: 'iva@example.hr',
  taxId: '12345678903',
  bankAccountNumber: 'HR12 1001 0051 8630 0016 0',
  bankIdentifierCode: 'ZABAHR2X',
};
const IBAN = 'HR1210010051863000160';

t.test('idempotent responses at rest', async (t) => {
  const app = await startTestApp(t);
  const db = app.rt.handle.db;
  const rawRow = async (key: string) =>
    (
      await sql<{ response_body: string | null; response_headers: unknown }>`
    select response_body, response_headers from idempotency_keys where tenant_id = ${app.tenant.id}::uuid and key = ${key}`.execute(db)
    ).rows[0];

  t.test('the stored body is sealed and the replay is identical', async (t) => {
    const headers = { 'idempotency-key': 'sealed-1' };
    const first = await app.request('POST', '/api/v1/employees', { body: employee, headers });
    t.equal(first.status, 201, first.text);
    t.match(first.text, IBAN, 'the response itself carries the IBAN');

    const row = await rawRow('sealed-1');
    t.ok(row?.response_body, 'the response was stored');
    const raw = JSON.stringify(row);
    t.notMatch(raw, IBAN, 'no IBAN in the raw row');
    t.notMatch(raw, 'HR12 1001', 'no IBAN as sent');
    t.notMatch(raw, '12345678903', 'no tax id in the raw row');
    t.notMatch(raw, 'Marić', 'no name in the raw row');
    t.match(row!.response_body!, /^sealed:v1\./);

    const again = await app.request('POST', '/api/v1/employees', { body: employee, headers });
    t.equal(again.status, 201);
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    t.equal(again.text, first.text, 'byte-identical body');
    t.equal(again.headers.get('content-type'), first.headers.get('content-type'));
    t.equal(again.headers.get('location'), first.headers.get('location'));
    t.equal(again.headers.get('etag'), first.headers.get('etag'));
  });

  t.test('a plain-text row stored by an earlier version still replays', async (t) => {
    const headers = { 'idempotency-key': 'plain-legacy' };
    const first = await app.request('POST', '/api/v1/employees', { body: { ...employee, firstName: 'Legacy' }, headers });
    t.equal(first.status, 201, first.text);
    await sql`update idempotency_keys set response_body = ${first.text}
      where tenant_id = ${app.tenant.id}::uuid and key = 'plain-legacy'`.execute(db);
    const again = await app.request('POST', '/api/v1/employees', { body: { ...employee, firstName: 'Legacy' }, headers });
    t.equal(again.status, 201);
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    t.equal(again.text, first.text);
  });

  t.test('expired keys of every tenant are swept', async (t) => {
    // The sweep runs at most every ten minutes per process; a fresh app runs it on its first keyed POST.
    const fresh = await startTestApp(t);
    // The fresh app has its own schema, so seed an expired row there and trigger the sweep.
    await sql`insert into idempotency_keys (tenant_id, key, method, path, request_hash, created_at)
      values (${fresh.tenant.id}::uuid, 'ancient', 'POST', '/x', 'h', now() - interval '25 hours')`.execute(fresh.rt.handle.db);
    await fresh.request('POST', '/api/v1/employees', { body: employee, headers: { 'idempotency-key': 'trigger' } });
    let left = 1;
    for (let i = 0; i < 100 && left > 0; i++) {
      left = Number(
        (await sql<{ n: number }>`select count(*)::int as n from idempotency_keys where key = 'ancient'`.execute(fresh.rt.handle.db))
          .rows[0]!.n,
      );
      if (left > 0) await new Promise((r) => setTimeout(r, 50));
    }
    t.equal(left, 0, 'the expired row is gone');
  });
});
