// What a partner receives: no personal data in any payload (a marker value in every personal and
// free-text field, none of which may appear in any delivered or stored body), data shapes limited
// to the webhook DTOs, and signatures that the package's exported verifier and a verifier written
// for the common payment-provider scheme both accept after the header rename.
import t from 'tap';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { verifyServiceSignature as fromPackage } from 'travelog';
import { setCustomFields } from '../../../../src/tenancy/tenants.js';
import { WEBHOOK_EVENT_TYPES } from '../../../../src/webhooks/catalog/event-types.js';
import { createEntry, entryCommand, registerEmployee, startWebhookHarness, waitFor } from '../../../helpers/webhook-harness.js';

const PERSONAL = {
  email: 'pii.email.marker@example.hr',
  phone: '+385 1 7777 4321',
  address: { street: 'PII-STREET-MARKER 1', postalCode: 'PII-POST', city: 'PII-CITY-MARKER', countryCode: 'HR' },
  taxId: 'PII-TAXID-MARKER',
  bankAccountNumber: 'HR1210010051863000160',
  bankIdentifierCode: 'ZABAHR2X',
  customFields: { note: 'PII-CUSTOM-MARKER' },
};
const ENTRY_TEXT = {
  departureLocation: 'PII-DEPARTURE-MARKER',
  departureLocationPlaceId: 'PII-DEPARTURE-PLACE-MARKER',
  destination: 'PII-DESTINATION-MARKER',
  destinationPlaceId: 'PII-DESTINATION-PLACE-MARKER',
  purpose: 'PII-PURPOSE-MARKER',
  report: 'PII-REPORT-MARKER',
  preApprovalNote: 'PII-PREAPPROVAL-MARKER',
};
const MARKERS = [
  'pii.email.marker',
  '7777 4321',
  'PII-',
  '1001005186300016',
  'ZABAHR2X',
  'Ilica',
  ...Object.values(ENTRY_TEXT),
  'PII-EXPENSE-MARKER',
  'PII-FILE-MARKER',
  'PII-OVERRIDE-MARKER',
  'PII-REASON-MARKER',
  'PII-COMMENT-MARKER',
];

const EMPLOYEE_KEYS = [
  'createdAt',
  'departmentId',
  'editedAt',
  'firstName',
  'id',
  'isAccountOwner',
  'isArchived',
  'lastName',
  'position',
  'resourceVersion',
  'status',
];
const ENTRY_KEYS = [
  'advancePayment',
  'advancePaymentInBaseCurrency',
  'createdAt',
  'currencyCode',
  'departureDate',
  'editedAt',
  'employeeId',
  'entryNumber',
  'id',
  'isDeleted',
  'isLocked',
  'isPaidOut',
  'resourceVersion',
  'returnDate',
  'status',
];

/** A partner's verifier for the payment-provider scheme, written from that scheme's public description; only the header name differs. */
function providerStyleVerify(payload: Buffer, sigHeader: string, endpointSecret: string, toleranceSec = 300): boolean {
  const items = sigHeader.split(',').map((item) => item.split('='));
  const timestamp = items.find(([k]) => k === 't')?.[1];
  const signatures = items.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (!timestamp || signatures.length === 0) return false;
  const expected = Buffer.from(
    createHmac('sha256', endpointSecret)
      .update(`${timestamp}.${payload.toString('utf8')}`, 'utf8')
      .digest('hex'),
  );
  const match = signatures.some((s) => Buffer.byteLength(s) === expected.length && timingSafeEqual(Buffer.from(s), expected));
  return match && Math.floor(Date.now() / 1000) - Number(timestamp) <= toleranceSec;
}

t.test('the partner view of deliveries', async (t) => {
  const h = await startWebhookHarness(t);
  const { app } = h;
  const tenant = await app.newTenant();
  await setCustomFields(app.rt.handle.db, tenant.id, [{ key: 'note', type: 'text', required: false }]);
  const sub = await h.subscribe([...WEBHOOK_EVENT_TYPES], { path: '/partner', key: tenant.key });

  // An employee with personal data in every field, updated and archived.
  const employeeId = await registerEmployee(app, { firstName: 'Ana', lastName: 'Horvat', position: 'Engineer', ...PERSONAL }, tenant.key);
  const approver = await registerEmployee(
    app,
    { firstName: 'Boss', lastName: 'Person', ...PERSONAL, email: 'pii.email.marker.boss@example.hr' },
    tenant.key,
  );
  t.equal(
    (
      await app.request('PUT', `/api/v1/employees/${employeeId}`, {
        body: { firstName: 'Ana', lastName: 'Kovač', ...PERSONAL, address: { ...PERSONAL.address, street: 'Ilica 2' } },
        key: tenant.key,
      })
    ).status,
    200,
  );

  // An entry with free text everywhere, through a whole lifecycle.
  const entryId = await createEntry(app, tenant.id, employeeId, ENTRY_TEXT);
  const steps = [{ stepId: 'step-1', name: 'Step 1', eligibleApproverIds: [approver] }];
  const run = (c: (id: string) => Parameters<typeof entryCommand>[3]) => entryCommand(app, tenant.id, entryId, c as never);
  await run((id) => ({
    type: 'AddExpense',
    data: {
      entryId: id,
      expense: {
        date: '2026-03-02',
        category: 'Accommodation',
        description: 'PII-EXPENSE-MARKER',
        amount: '120.00',
        currencyCode: 'EUR',
        exchangeRate: null,
        exchangeRateSource: null,
        amountInBaseCurrency: '120.00',
      },
    },
  }));
  await run((id) => ({
    type: 'AddPerDiem',
    data: {
      entryId: id,
      perDiem: {
        countryCode: 'AT',
        departureTime: '2026-03-02T06:00:00Z',
        arrivalTime: '2026-03-03T20:00:00Z',
        breakfastsProvided: 1,
        lunchesProvided: 0,
        dinnersProvided: 0,
        amount: '70.00',
        currencyCode: 'EUR',
        overrideAmount: '50.00',
        overrideReason: 'PII-OVERRIDE-MARKER',
        exchangeRateSource: null,
      },
    },
  }));
  await run((id) => ({
    type: 'AddAttachments',
    data: {
      entryId: id,
      attachments: [
        { id: '3c1f2a9e-8b7d-4e6f-9a5b-1c2d3e4f5a6b', fileName: 'PII-FILE-MARKER.pdf', contentType: 'application/pdf', size: 1234 },
      ],
    },
  }));
  await run((id) => ({ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps: steps } }));
  await run((id) => ({
    type: 'RequestTravelEntryChanges',
    data: { entryId: id, approverId: approver, approverIsActiveEmployee: true, reason: 'PII-REASON-MARKER' },
  }));
  await run((id) => ({ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps: steps } }));
  await run((id) => ({
    type: 'ApproveTravelEntry',
    data: { entryId: id, approverId: approver, approverIsActiveEmployee: true, comment: 'PII-COMMENT-MARKER' },
  }));
  await run((id) => ({
    type: 'MarkTravelEntryPaidOut',
    data: { entryId: id, payoutBatchId: 'batch-1', payoutMethod: 'BankTransfer', payoutDate: '2026-03-20' },
  }));
  t.equal((await app.request('POST', `/api/v1/employees/${employeeId}/archive`, { key: tenant.key })).status, 200);

  const expected = 2 /* employees */ + 1 /* update */ + 9 /* entry */ + 1; /* archive */
  const received = await h.waitForRequests('/partner', expected);
  const types = received.map((r) => String(r.headers['service-event'])).sort();
  t.same(
    [...new Set(types)],
    ['employee.created', 'employee.updated', 'entry.approved', 'entry.created', 'entry.paidout', 'entry.updated'],
    'every catalog type was delivered',
  );

  t.test('no personal data in any delivered or stored payload', async (t) => {
    const stored = await sql<{
      payload: Uint8Array;
    }>`select payload from webhook_deliveries where subscription_id = ${sub.id}::uuid`.execute(app.rt.handle.db);
    const bodies = [...received.map((r) => r.body.toString('utf8')), ...stored.rows.map((r) => Buffer.from(r.payload).toString('utf8'))];
    t.equal(bodies.length, expected * 2);
    for (const body of bodies) {
      const leaked = MARKERS.filter((m) => body.toLowerCase().includes(m.toLowerCase()));
      t.same(leaked, [], `no marker in ${JSON.parse(body).type}`);
      const { data } = JSON.parse(body);
      t.same(
        Object.keys(data).sort(),
        String(JSON.parse(body).type).startsWith('employee.') ? EMPLOYEE_KEYS : ENTRY_KEYS,
        'only the webhook DTO fields',
      );
    }
    // The full record, with the personal data, is one authenticated pull away.
    const full = await app.request('GET', `/api/v1/employees/${employeeId}`, { key: tenant.key });
    t.equal(full.body.email, PERSONAL.email);
  });

  t.test('the exported verifier and a payment-provider-style verifier accept every delivery', async (t) => {
    await waitFor(() => (received.length >= expected ? true : undefined));
    for (const r of received) {
      const header = String(r.headers['service-signature']); // the provider's verifier read its own header here
      t.ok(fromPackage(r.body, header, sub.signingSecret), 'verifyServiceSignature from the package entry');
      t.ok(providerStyleVerify(r.body, header, sub.signingSecret), 'provider-style verifier');
      t.notOk(providerStyleVerify(r.body, header, `${sub.signingSecret}x`), 'and it still rejects a wrong secret');
    }
  });
});
