// A create's number and entry in one atomic append (issue 13; PostgreSQL and PGlite both append
// streams atomically): the reservation, the claim and the entry are written together or not at all.
// A create whose own append fails leaves no reservation and no claim behind (the next create gets
// the same number: no gap); the three share one commit; an import holding the next number is still
// skipped; concurrent creates of one tenant-year take consecutive numbers, each held once.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../src/application/command-handler.js';
import { entryNumberClaimStream, entryNumberStream } from '../../src/application/travel-entries/entry-numbers.js';
import { streamName } from '../../src/domain/travel-entries/index.js';
import { DomainError } from '../../src/domain/errors.js';
import { getTenant } from '../../src/tenancy/tenants.js';
import type { CommandContext } from '../../src/domain/decider.js';
import { startTestApp } from '../helpers/app.js';

t.test('a created entry and its number: one append, all or none', async (t) => {
  const app = await startTestApp(t);
  const { store } = app.rt;
  const writes = app.rt.app!.deps.travelEntries;
  t.ok(writes.numbers.atomic, 'the store appends streams atomically');
  const tenant = (await getTenant(app.rt.handle.db, app.tenant.id))!;
  const employeeId = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } })).body.id;
  const body = {
    employeeId,
    entryDate: '2025-04-14',
    departureDate: '2025-04-14',
    returnDate: '2025-04-16',
    travelType: 'Domestic',
    currencyCode: 'EUR',
  } as never;
  const ctx = (): CommandContext => ({
    tenantId: tenant.id,
    now: new Date().toISOString(),
    newId: randomUUID,
    actor: { apiKeyId: app.tenant.apiKeyId },
  });
  const create = (correlationId = randomUUID()) => {
    const write = writes.create(ctx(), tenant, body, correlationId);
    return { write, run: () => handleCommand(store, { ...write, correlationId }) };
  };
  const numberOf = (r: Awaited<ReturnType<ReturnType<typeof create>['run']>>) =>
    r.state.kind === 'Existing' ? r.state.entry.entryNumber : undefined;
  const sequence = entryNumberStream(tenant.id, '2025');

  const first = await create().run();
  t.equal(numberOf(first), '2025-00001');
  const [reserved] = await store.readStream(sequence, { direction: 'backwards', maxCount: 1 });
  const [claimed] = await store.readStream(entryNumberClaimStream(tenant.id, '2025-00001'));
  t.same(
    [reserved!.position.commit, claimed!.position.commit],
    [first.position!.commit, first.position!.commit],
    'reservation, claim and entry share one commit',
  );
  t.equal((claimed!.data as { entryId: string }).entryId, first.state.kind === 'Existing' ? first.state.entry.id : '');

  // The entry's own stream exists already (as an id collision would have it): ALREADY_EXISTS, and
  // the number it would have taken is neither reserved nor claimed.
  const doomed = create();
  await store.appendToStream(
    streamName(doomed.write.entryId),
    [{ id: randomUUID(), type: 'Squatter', data: {}, metadata: { ...reserved!.metadata } }],
    'no_stream',
  );
  const err = await doomed.run().catch((e: unknown) => e);
  t.ok(err instanceof DomainError && err.code === 'ALREADY_EXISTS', 'the create is refused');
  t.equal((await store.readStream(sequence)).length, 1, 'no reservation was written');
  t.same(await store.readStream(entryNumberClaimStream(tenant.id, '2025-00002')), [], 'no claim was written');
  t.equal(numberOf(await create().run()), '2025-00002', 'the next create takes the number: no gap');

  // An import holding the next number: the create reserves it (skipped) and takes the one after.
  const imported = await app.request('POST', '/api/v1/travel-entries/import', {
    body: { ...(body as object), entryNumber: '2025-00003', status: 'Approved' },
  });
  t.equal(imported.status, 201, imported.text);
  t.equal(numberOf(await create().run()), '2025-00004', 'the imported number is skipped');
  const reservations = (await store.readStream(sequence)).map((e) => (e.data as { entryNumber: string }).entryNumber);
  t.same(reservations, ['2025-00001', '2025-00002', '2025-00003', '2025-00004'], 'the skipped number stays reserved');

  // Concurrent creates of one tenant-year: consecutive numbers, each held by exactly one entry.
  const many = await Promise.all(Array.from({ length: 12 }, () => create().run()));
  const numbers = many.map(numberOf).sort();
  t.same(
    numbers,
    Array.from({ length: 12 }, (_, i) => `2025-${String(i + 5).padStart(5, '0')}`),
    'no gap, no duplicate',
  );
});
