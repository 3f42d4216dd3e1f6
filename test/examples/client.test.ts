// The generated client example (examples/client.ts, openapi-fetch over the types openapi-typescript
// generates from our document) run against a live server: what a partner's first integration does.
import t from 'tap';
import { runClientExample } from '../../examples/client.js';
import { registerEmployee, startWebhookHarness } from '../helpers/webhook-harness.js';

t.test('the typed client lists employees, creates and reads an entry, and pages deliveries with cursors', async (t) => {
  const h = await startWebhookHarness(t);
  await h.subscribe(['entry.created', 'employee.created']);
  const employeeId = await registerEmployee(h.app);
  // More deliveries than one page of the example's pageSize (10), so its cursor loop turns.
  for (let i = 0; i < 11; i++) {
    const res = await h.app.request('POST', '/api/v1/travel-entries', {
      body: {
        employeeId,
        entryDate: '2026-03-01',
        departureDate: '2026-03-02',
        returnDate: '2026-03-03',
        departureLocation: 'Zagreb',
        destination: 'Rijeka',
        travelType: 'Domestic',
        purpose: `Visit ${i}`,
        currencyCode: 'EUR',
      },
    });
    t.equal(res.status, 201, res.text);
  }
  await h.waitForRequests('/hook', 12);

  const result = await runClientExample(h.app.baseUrl, h.app.tenant.key);
  t.equal(result.employees, 1, 'it listed the one employee');
  t.match(result.entryNumber, /\S/, 'the entry it created has a number');
  const read = await h.app.request('GET', `/api/v1/travel-entries/${result.entryId}`);
  t.equal(read.status, 200, 'the entry exists');
  await h.waitForRequests('/hook', 13);
  t.ok(result.deliveries >= 12, `it paged through ${result.deliveries} deliveries`);
});
