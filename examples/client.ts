// A partner's first client, generated from our OpenAPI document: `npm run client:generate` writes
// examples/generated/api.d.ts with openapi-typescript, and openapi-fetch turns it into typed calls.
// `npm run lint` type-checks this file against the generated types; test/examples/client.test.ts
// runs it against a live server. It lists employees, creates an entry, reads it back, and pages
// through the deliveries of every webhook subscription with cursors.
import createClient from 'openapi-fetch';
import type { paths } from './generated/api.js';

export interface ExampleResult {
  employees: number;
  entryId: string;
  entryNumber: string;
  deliveries: number;
}

export async function runClientExample(baseUrl: string, apiKey: string): Promise<ExampleResult> {
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

  const employees = await api.GET('/api/v1/employees', { params: { query: { pageSize: 50 } } });
  if (!employees.data) throw new Error(`listing employees failed: ${JSON.stringify(employees.error)}`);
  let employeeId = employees.data.items[0]?.id;
  if (!employeeId) {
    const created = await api.POST('/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } });
    if (!created.data) throw new Error(`registering an employee failed: ${JSON.stringify(created.error)}`);
    employeeId = created.data.id;
  }

  const entry = await api.POST('/api/v1/travel-entries', {
    params: { header: { 'Idempotency-Key': `example-${employeeId}` } },
    body: {
      employeeId,
      entryDate: '2026-03-01',
      departureDate: '2026-03-02',
      returnDate: '2026-03-03',
      departureLocation: 'Zagreb',
      destination: 'Split',
      travelType: 'Domestic',
      purpose: 'Customer visit',
      currencyCode: 'EUR',
      expenses: [{ date: '2026-03-02', category: 'Hotel', amount: '89.00', currencyCode: 'EUR' }],
    },
  });
  if (!entry.data) throw new Error(`creating an entry failed: ${JSON.stringify(entry.error)}`);

  const read = await api.GET('/api/v1/travel-entries/{id}', { params: { path: { id: entry.data.id } } });
  if (!read.data) throw new Error(`reading the entry failed: ${JSON.stringify(read.error)}`);

  let deliveries = 0;
  const subscriptions = await api.GET('/api/v1/webhooks', {});
  if (!subscriptions.data) throw new Error(`listing webhooks failed: ${JSON.stringify(subscriptions.error)}`);
  for (const subscription of subscriptions.data.items) {
    let cursor: string | undefined;
    do {
      const page = await api.GET('/api/v1/webhooks/{id}/deliveries', {
        params: { path: { id: subscription.id }, query: { pageSize: 10, ...(cursor ? { cursor } : {}) } },
      });
      if (!page.data) throw new Error(`paging deliveries failed: ${JSON.stringify(page.error)}`);
      deliveries += page.data.items.length;
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor);
  }

  return { employees: employees.data.items.length, entryId: read.data.id, entryNumber: read.data.entryNumber, deliveries };
}
