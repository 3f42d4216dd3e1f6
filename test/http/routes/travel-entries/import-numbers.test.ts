// Imported entry numbers over real HTTP (issue 7, item 6): the number is checked (YYYY-NNNNN of
// the entry date's year, or the legacy pattern; no markup, control or bidi characters, no dates)
// and unique per tenant across created and imported entries, also when requests race.
import t from 'tap';
import { startTestApp, type TestApp } from '../../../helpers/app.js';

type Tenant = { id: string; key: string };

async function employee(app: TestApp, key: string): Promise<string> {
  const res = await app.request('POST', '/api/v1/employees', { key, body: { firstName: 'Ana', lastName: 'Test' } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id;
}

// EUR and no advance: no exchange rate is needed. The entry date's year is 2025.
const trip = (employeeId: string) => ({
  employeeId,
  entryDate: '2025-04-14',
  departureDate: '2025-04-14',
  returnDate: '2025-04-16',
  destination: 'Wien',
  travelType: 'Foreign',
  purpose: 'Workshop',
  advancePayment: 0,
  currencyCode: 'EUR',
});

async function fresh(app: TestApp): Promise<{ tenant: Tenant; emp: string }> {
  const tenant = await app.newTenant();
  return { tenant, emp: await employee(app, tenant.key) };
}

const importEntry = (app: TestApp, tenant: Tenant, emp: string, entryNumber: string, extra: Record<string, unknown> = {}) =>
  app.request('POST', '/api/v1/travel-entries/import', { key: tenant.key, body: { ...trip(emp), entryNumber, status: 'Draft', ...extra } });
const createEntry = (app: TestApp, tenant: Tenant, emp: string) =>
  app.request('POST', '/api/v1/travel-entries', { key: tenant.key, body: trip(emp) });

async function numbersOf(app: TestApp, tenant: Tenant): Promise<string[]> {
  const res = await app.request('GET', '/api/v1/travel-entries?pageSize=100', { key: tenant.key });
  return (res.body.items as { entryNumber: string }[]).map((e) => e.entryNumber).sort();
}

t.test('imported entry numbers', async (t) => {
  const app = await startTestApp(t);

  t.test("a number that is not YYYY-NNNNN of the entry date's year nor a legacy number is a 400 keyed by entryNumber", async (t) => {
    const { tenant, emp } = await fresh(app);
    for (const bad of [
      '<script>alert(1)</script>',
      '2025-02-30',
      '2025-\u202e00042',
      'LEG\u202e-1',
      'LEG-1\u0007',
      '2024-00001',
      '2025-00000',
      'LEG 1',
    ]) {
      const res = await importEntry(app, tenant, emp, bad);
      t.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      t.equal(res.body.code, 'VALIDATION_FAILED');
      t.ok(res.body.errors?.entryNumber?.length, `${JSON.stringify(bad)} is keyed by entryNumber`);
    }
    t.same(await numbersOf(app, tenant), [], 'nothing was stored');
    const ok = await importEntry(app, tenant, emp, '2025-00042');
    t.same([ok.status, ok.body.entryNumber], [201, '2025-00042'], ok.text);
  });

  t.test(
    'the same number imported twice: the second is 409 ENTRY_NUMBER_TAKEN (case and leading zeros do not make it another)',
    async (t) => {
      const { tenant, emp } = await fresh(app);
      t.equal((await importEntry(app, tenant, emp, 'LEG-2021-7')).status, 201);
      for (const again of ['LEG-2021-7', 'leg-2021-7']) {
        const res = await importEntry(app, tenant, emp, again);
        t.same([res.status, res.body.code, res.body.entryNumber], [409, 'ENTRY_NUMBER_TAKEN', again], res.text);
      }
      t.equal((await importEntry(app, tenant, emp, '2025-00001')).status, 201);
      const padded = await importEntry(app, tenant, emp, '2025-000001');
      t.same([padded.status, padded.body.code], [409, 'ENTRY_NUMBER_TAKEN'], padded.text);
      t.same(await numbersOf(app, tenant), ['2025-00001', 'LEG-2021-7']);
      const other = await fresh(app);
      t.equal((await importEntry(app, other.tenant, other.emp, 'LEG-2021-7')).status, 201, 'another tenant has its own numbers');
    },
  );

  t.test('importing a number a create already took is 409', async (t) => {
    const { tenant, emp } = await fresh(app);
    const created = await createEntry(app, tenant, emp);
    t.same([created.status, created.body.entryNumber], [201, '2025-00001'], created.text);
    const res = await importEntry(app, tenant, emp, '2025-00001');
    t.same([res.status, res.body.code], [409, 'ENTRY_NUMBER_TAKEN'], res.text);
    t.same(await numbersOf(app, tenant), ['2025-00001']);
  });

  t.test('a create skips a number an import already holds', async (t) => {
    const { tenant, emp } = await fresh(app);
    t.equal((await importEntry(app, tenant, emp, '2025-00002')).status, 201);
    t.equal((await importEntry(app, tenant, emp, '2025-00003')).status, 201);
    const first = await createEntry(app, tenant, emp);
    const second = await createEntry(app, tenant, emp);
    t.same([first.body.entryNumber, second.body.entryNumber], ['2025-00001', '2025-00004'], 'the imported 00002 and 00003 are skipped');
    t.same(await numbersOf(app, tenant), ['2025-00001', '2025-00002', '2025-00003', '2025-00004']);
  });

  t.test('concurrent imports of one number: exactly one wins', async (t) => {
    const { tenant, emp } = await fresh(app);
    for (const number of ['LEG-RACE-1', '2025-00007']) {
      const results = await Promise.all(Array.from({ length: 6 }, () => importEntry(app, tenant, emp, number)));
      const statuses = results.map((r) => r.status).sort();
      t.same(statuses, [201, 409, 409, 409, 409, 409], `${number}: ${results.map((r) => r.text.slice(0, 120)).join(' | ')}`);
      t.ok(results.filter((r) => r.status === 409).every((r) => r.body.code === 'ENTRY_NUMBER_TAKEN'));
    }
    t.same(await numbersOf(app, tenant), ['2025-00007', 'LEG-RACE-1']);
  });

  t.test('creates racing imports of the numbers they would take: every number is held once', async (t) => {
    const { tenant, emp } = await fresh(app);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => createEntry(app, tenant, emp)),
      ...['2025-00001', '2025-00002', '2025-00003', '2025-00004'].map((n) => importEntry(app, tenant, emp, n)),
    ]);
    t.ok(
      results.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'ENTRY_NUMBER_TAKEN')),
      results.map((r) => r.status).join(','),
    );
    t.ok(
      results.slice(0, 4).every((r) => r.status === 201),
      'every create succeeds (it skips to a free number)',
    );
    const numbers = await numbersOf(app, tenant);
    t.equal(new Set(numbers).size, numbers.length, `no number twice: ${numbers.join(', ')}`);
    t.equal(numbers.length, results.filter((r) => r.status === 201).length);
  });
});
