// PUT of one expense, per diem or allocation: the body may carry the row's own id (as read, in any
// case), but an id naming another row is a 400 keyed `id` (outside probe, session 21: it was ignored).
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';
import { domesticTrip } from '../../../helpers/domestic-trip.js';

t.test('row ids in a changed row', async (t) => {
  const app = await startTestApp(t);
  const employee = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Rita', lastName: 'Row' } })).body.id as string;
  const cc = (await app.request('POST', '/api/v1/cost-centers', { body: { code: 'ROW-1', name: 'Rows' } })).body.id as string;
  const created = await app.request('POST', '/api/v1/travel-entries', {
    body: domesticTrip(employee, {
      expenses: [
        { date: '2025-04-14', category: 'Taxi', amount: 10, currencyCode: 'EUR' },
        { date: '2025-04-14', category: 'Bus', amount: 2, currencyCode: 'EUR' },
      ],
      costCenterAllocations: [{ costCenterId: cc, share: 100 }],
    }),
  });
  t.equal(created.status, 201, created.text);
  const entry = created.body;
  const [first, second] = entry.expenses;
  const path = `/api/v1/travel-entries/${entry.id}/expenses/${first.id}`;
  const row = { date: '2025-04-14', category: 'Taxi', amount: 12, currencyCode: 'EUR' };

  const other = await app.request('PUT', path, { body: { ...row, id: second.id } });
  t.same([other.status, Object.keys(other.body.errors ?? {})], [400, ['id']], other.text);
  const unchanged = await app.request('GET', `/api/v1/travel-entries/${entry.id}`);
  t.same(
    unchanged.body.expenses.map((e: { amount: number }) => e.amount),
    [10, 2],
    'nothing changed',
  );

  for (const id of [first.id, first.id.toUpperCase(), undefined, null]) {
    const res = await app.request('PUT', path, { body: { ...row, ...(id === undefined ? {} : { id }) } });
    t.equal(res.status, 200, `id ${String(id)}: ${res.text}`);
  }

  const allocation = entry.costCenterAllocations[0];
  const allocationPath = `/api/v1/travel-entries/${entry.id}/cost-center-allocations/${allocation.id}`;
  const wrong = await app.request('PUT', allocationPath, { body: { id: first.id, costCenterId: cc, share: 100 } });
  t.same([wrong.status, Object.keys(wrong.body.errors ?? {})], [400, ['id']], wrong.text);
});
