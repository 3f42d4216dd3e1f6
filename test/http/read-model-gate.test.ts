// A lookup's miss is believed only once its read model has caught up with the log
// (src/application/read-model-gate.ts). An operator's outside try (session 24) killed the projector:
// an entry naming an employee the API had just answered 201 for got a 400 "No such employee", stored
// under its Idempotency-Key for a day. Here each read model is put behind the log as a stopped or
// slow projector leaves it (its rows not written yet, its checkpoint before them), and the writes
// that name those records answer a 503 to retry, then succeed once the projections have run; a
// record that is not in the log at all is still a 400.
import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { setWorkflow } from '../../src/tenancy/tenants.js';

/** POSTs a body, expects 201 and answers the new id. */
const creator =
  (t: Test, app: TestApp) =>
  async (path: string, body: unknown): Promise<string> => {
    const res = await app.request('POST', path, { body });
    t.equal(res.status, 201, `${path}: ${res.text}`);
    return res.body.id as string;
  };

/** A domestic one-day trip of the employee. */
const dayTrip = (employeeId: string, day: string, extra: object = {}) => ({
  employeeId,
  departureDate: day,
  returnDate: day,
  travelType: 'Domestic',
  currencyCode: 'EUR',
  ...extra,
});

t.test('a reference missing from a read model that is behind the log is a 503 to retry, not a 400', async (t) => {
  const app = await startTestApp(t);
  const db = app.rt.handle.db;
  const created = creator(t, app);
  const traveller = await created('/api/v1/employees', { firstName: 'Ana', lastName: 'Known' });
  const newcomer = await created('/api/v1/employees', { firstName: 'Bruno', lastName: 'Behind' });
  const vehicle = await created('/api/v1/vehicles', { registrationNumber: 'ZG-100-GT', ownership: 'Company' });
  const costCenter = await created('/api/v1/cost-centers', { code: 'CC-GATE', name: 'Gate' });
  const department = await created('/api/v1/departments', { name: 'Gate' });

  // The projector stops; four read models lose the rows of these records and go back to the start
  // of the log, which is where a projector that never ran them would be.
  await app.rt.runner.stop();
  await sql`delete from rm_employees where id = ${newcomer}::uuid`.execute(db);
  await sql`delete from rm_vehicles where id = ${vehicle}::uuid`.execute(db);
  await sql`delete from rm_cost_centers where id = ${costCenter}::uuid`.execute(db);
  await sql`delete from rm_departments where id = ${department}::uuid`.execute(db);
  await sql`update projection_checkpoints set position = null, events_processed = 0
    where name in ('employees', 'vehicles', 'cost-centers', 'departments')`.execute(db);

  const entry = (employeeId: string, extra: object = {}) => dayTrip(employeeId, '2026-02-02', extra);
  const refs = { vehicleId: vehicle, costCenterAllocations: [{ costCenterId: costCenter, share: 100 }] };
  const writes = () =>
    Promise.all([
      app.request('POST', '/api/v1/travel-entries', { body: entry(newcomer) }),
      app.request('POST', '/api/v1/travel-entries', { body: entry(traveller, refs) }),
      app.request('POST', '/api/v1/employees', { body: { firstName: 'Cvita', lastName: 'Placed', departmentId: department } }),
    ]);
  const behind = await writes();
  for (const [i, res] of behind.entries()) {
    t.match(
      [res.status, res.body.code, res.headers.get('retry-after'), res.headers.get('content-type')],
      [503, 'SERVICE_UNAVAILABLE', '5', /application\/problem\+json/],
      `write ${i}: a 503 to retry while the read model is behind: ${JSON.stringify(res.body.errors)}`,
    );
  }

  await app.rt.runner.start();
  const caughtUp = await writes();
  t.same(
    caughtUp.map((r) => r.status),
    [201, 201, 201],
    `once the projections have run, the same writes succeed: ${caughtUp.map((r) => JSON.stringify(r.body).slice(0, 200)).join(' | ')}`,
  );

  // Not in the log at all: still a 400, and without the wait.
  const started = Date.now();
  const unknown = await app.request('POST', '/api/v1/travel-entries', {
    body: entry(randomUUID(), { vehicleId: randomUUID(), costCenterAllocations: [{ costCenterId: randomUUID(), share: 100 }] }),
  });
  t.same(
    [unknown.status, Object.keys(unknown.body.errors ?? {}).sort()],
    [400, ['costCenterAllocations[0].costCenterId', 'employeeId', 'vehicleId']],
  );
  const strangers = await app.request('POST', '/api/v1/travel-entries', {
    body: entry(traveller, { vehicleId: randomUUID(), costCenterAllocations: [{ costCenterId: randomUUID(), share: 100 }] }),
  });
  t.same(
    [strangers.status, Object.keys(strangers.body.errors ?? {}).sort()],
    [400, ['costCenterAllocations[0].costCenterId', 'vehicleId']],
  );
  t.ok(Date.now() - started < 4000, 'read models that are caught up answer at once');
});

t.test("a workflow's approvers missing from a read model that is behind the log are a 503, not skipped", async (t) => {
  // Before the gate, an approver registered a moment before was matched against a lagging
  // employees read model and skipped like an inactive one: the step lost its only approver and a
  // submitted entry was approved at once; the approver's own decision was a 403.
  const app = await startTestApp(t);
  const db = app.rt.handle.db;
  const created = creator(t, app);
  const worker = await created('/api/v1/employees', { firstName: 'Ana', lastName: 'Worker' });
  const lead = await created('/api/v1/employees', { firstName: 'Bruno', lastName: 'Lead' });
  // A former employee named on a step of its own: found in the read model, inactive, so no wait.
  const former = await created('/api/v1/employees', { firstName: 'Cvita', lastName: 'Former' });
  t.equal((await app.request('POST', `/api/v1/employees/${former}/archive`)).status, 200);
  await setWorkflow(db, app.tenant.id, { steps: [{ approverIds: [lead] }, { approverIds: [former] }] });
  const entry = await created('/api/v1/travel-entries', dayTrip(worker, '2026-02-02'));
  const leadBehind = async () => {
    await app.rt.runner.stop();
    await sql`delete from rm_employees where id = ${lead}::uuid`.execute(db);
    await sql`update projection_checkpoints set position = null, events_processed = 0 where name = 'employees'`.execute(db);
  };
  const unavailable = (res: { status: number; body: any }) => [res.status, res.body.code];

  // The employees read model behind the log, but holding every employee: the former employee's step
  // is skipped (inactive), not answered with a wait and a 503 (a review, session 25).
  const other = await created('/api/v1/travel-entries', dayTrip(worker, '2026-02-03'));
  await app.rt.runner.stop();
  await sql`update projection_checkpoints set position = null, events_processed = 0 where name = 'employees'`.execute(db);
  const known = await app.request('POST', `/api/v1/travel-entries/${other}/submit`);
  t.same([known.status, known.body.approval?.skippedStepIds], [200, ['step-2']], `an inactive approver is known: ${known.text}`);
  await app.rt.runner.start();

  await leadBehind();
  // Under an Idempotency-Key: the 503 wrote nothing, so the retry it asks for runs at once (a review,
  // session 25: it was refused IDEMPOTENCY_KEY_IN_USE for about 30 s).
  const submit = () => app.request('POST', `/api/v1/travel-entries/${entry}/submit`, { headers: { 'idempotency-key': 'submit-behind' } });
  t.same(unavailable(await submit()), [503, 'SERVICE_UNAVAILABLE'], 'submission waits for the approvers, then asks to retry');
  await app.rt.runner.start();
  const submitted = await submit();
  t.same([submitted.status, submitted.body.status, submitted.body.approval?.steps[0]?.approverIds], [200, 'PendingApproval', [lead]]);

  await leadBehind();
  const approve = () => app.request('POST', `/api/v1/travel-entries/${entry}/approve`, { body: { approverId: lead } });
  t.same(unavailable(await approve()), [503, 'SERVICE_UNAVAILABLE'], 'a decision waits for its approver, then asks to retry');
  await app.rt.runner.start();
  const approved = await approve();
  t.same([approved.status, approved.body.status], [200, 'Approved'], approved.text);
});

t.test('organization writes wait for their read models: a lookup miss and a count of references', async (t) => {
  // Before the gate, a vehicle's owner and a department's parent or default cost center missing
  // from a read model behind the log were a 400, and a delete counted references in read models
  // that had not applied them yet: a vehicle, cost center or department named by a record was
  // deleted (204), leaving that record's reference dangling.
  const app = await startTestApp(t);
  const db = app.rt.handle.db;
  const created = creator(t, app);
  const owner = await created('/api/v1/employees', { firstName: 'Ana', lastName: 'Owner' });
  const vehicle = await created('/api/v1/vehicles', { registrationNumber: 'ZG-200-GT', ownership: 'Company' });
  const costCenter = await created('/api/v1/cost-centers', { code: 'CC-REF', name: 'Referenced' });
  const parent = await created('/api/v1/departments', { name: 'Parent', defaultCostCenterId: costCenter });
  const staffed = await created('/api/v1/departments', { name: 'Staffed' });
  await created('/api/v1/employees', { firstName: 'Bruno', lastName: 'Staff', departmentId: staffed });
  await created('/api/v1/travel-entries', dayTrip(owner, '2026-02-02', { vehicleId: vehicle }));

  // The projector stops; the read models lose these rows and go back to the start of the log.
  await app.rt.runner.stop();
  await sql`delete from rm_employees where tenant_id = ${app.tenant.id}::uuid`.execute(db);
  await sql`delete from rm_departments where tenant_id = ${app.tenant.id}::uuid`.execute(db);
  await sql`delete from rm_cost_centers where tenant_id = ${app.tenant.id}::uuid`.execute(db);
  await sql`delete from rm_travel_entries where tenant_id = ${app.tenant.id}::uuid`.execute(db);
  await sql`update projection_checkpoints set position = null, events_processed = 0
    where name in ('employees', 'departments', 'cost-centers', 'travel-entries')`.execute(db);

  const writes = () =>
    Promise.all([
      app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'ZG-201-GT', ownership: 'Private', employeeId: owner } }),
      app.request('POST', '/api/v1/departments', { body: { name: 'Child', parentId: parent, defaultCostCenterId: costCenter } }),
      app.request('DELETE', `/api/v1/vehicles/${vehicle}`),
      app.request('DELETE', `/api/v1/cost-centers/${costCenter}`),
      app.request('DELETE', `/api/v1/departments/${staffed}`),
    ]);
  const behind = await writes();
  for (const [i, res] of behind.entries()) {
    t.same([res.status, res.body.code], [503, 'SERVICE_UNAVAILABLE'], `write ${i}: a 503 to retry while its read model is behind`);
  }

  await app.rt.runner.start();
  const caughtUp = await writes();
  t.same(
    caughtUp.map((r) => [r.status, r.body.code]),
    [
      [201, undefined],
      [201, undefined],
      [409, 'RESOURCE_IN_USE'],
      [409, 'RESOURCE_IN_USE'],
      [409, 'RESOURCE_IN_USE'],
    ],
    `once the projections have run, lookups find the records and deletes count their references: ${caughtUp.map((r) => r.text.slice(0, 160)).join(' | ')}`,
  );
});
