// A create's number and entry in one atomic append (issue 13; PostgreSQL and PGlite both append
// streams atomically): the reservation, the claim and the entry are written together or not at all.
// A create whose own append fails leaves no reservation and no claim behind (the next create gets
// the same number: no gap); the three share one commit; an import holding the next number is still
// skipped; concurrent creates of one tenant-year take consecutive numbers, each held once. Creates
// that wait behind an append in flight go together in one append, and a refusal by one of them
// (its stream exists, an import holds its number) is met by that one alone.
import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { eventsToAppend, handleCommand } from '../../src/application/command-handler.js';
import { EntryNumbers, entryNumberClaimStream, entryNumberStream } from '../../src/application/travel-entries/entry-numbers.js';
import { streamName } from '../../src/domain/travel-entries/index.js';
import { DomainError } from '../../src/domain/errors.js';
import { getTenant } from '../../src/tenancy/tenants.js';
import { verifyStream } from '../../src/application/audit/verify-store.js';
import type { CommandContext } from '../../src/domain/decider.js';
import { startTestApp } from '../helpers/app.js';

/** A tenant with an employee, and creates of a Domestic entry dated `date` through the write path. */
async function entryCreates(t: Test, date: string) {
  const app = await startTestApp(t);
  const { store } = app.rt;
  const writes = app.rt.app!.deps.travelEntries;
  const tenant = (await getTenant(app.rt.handle.db, app.tenant.id))!;
  const employeeId = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } })).body.id;
  const body = { employeeId, entryDate: date, departureDate: date, returnDate: date, travelType: 'Domestic', currencyCode: 'EUR' } as never;
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
  return { app, store, writes, tenant, body, create, sequence: entryNumberStream(tenant.id, date.slice(0, 4)) };
}

t.test('a created entry and its number: one append, all or none', async (t) => {
  const { app, store, writes, tenant, body, create, sequence } = await entryCreates(t, '2025-04-14');
  t.ok(writes.numbers.atomic, 'the store appends streams atomically');
  const numberOf = (r: Awaited<ReturnType<ReturnType<typeof create>['run']>>) =>
    r.state.kind === 'Existing' ? r.state.entry.entryNumber : undefined;

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

t.test('creates waiting behind an append go in one append; a refusal is met by its own create', async (t) => {
  const { app, store, writes, body, create, sequence } = await entryCreates(t, '2024-05-06');
  // The tenant-year's queue held, as an append in flight holds it: the creates of each round gather
  // behind it (every one decided and waiting) and go when it is released.
  const numbers_ = writes.numbers as unknown as {
    queued(streamId: string, work: () => Promise<unknown>): Promise<unknown>;
    openBatches?: Map<string, unknown[]>;
  };
  const round = async <T>(runs: (() => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> => {
    let release!: () => void;
    void numbers_.queued(sequence, () => new Promise<void>((r) => (release = r)));
    const settled = Promise.allSettled(runs.map((run) => run()));
    for (let waited = 0; waited < 10_000 && numbers_.openBatches?.get(sequence)?.length !== runs.length; waited += 10) {
      await new Promise((r) => setTimeout(r, 10));
    }
    release();
    return settled;
  };
  const numbers = (results: PromiseSettledResult<Awaited<ReturnType<ReturnType<typeof create>['run']>>>[]) =>
    results.map((r) => (r.status === 'fulfilled' && r.value.state.kind === 'Existing' ? r.value.state.entry.entryNumber : 'refused'));
  const commitsOf = async (from: number) =>
    new Set((await store.readStream(sequence)).slice(from).map((e) => String(e.position.commit))).size;

  const first = await round(Array.from({ length: 8 }, () => create().run));
  t.same(
    numbers(first).sort(),
    Array.from({ length: 8 }, (_, i) => `2024-0000${i + 1}`),
    'consecutive numbers',
  );
  t.equal(await commitsOf(0), 1, 'eight reservations in one commit');
  t.equal((await verifyStream(store, sequence))?.status, 'valid', "the sequence's hash chain links every reservation");

  // One create of the round finds its stream taken: it alone is refused, the others number on.
  const creates = Array.from({ length: 5 }, () => create());
  await store.appendToStream(
    streamName(creates[2]!.write.entryId),
    [{ id: randomUUID(), type: 'Squatter', data: {}, metadata: (await store.readStream(sequence))[0]!.metadata }],
    'no_stream',
  );
  const second = await round(creates.map((c) => c.run));
  const refused = second[2]!;
  t.ok(
    refused.status === 'rejected' && refused.reason instanceof DomainError && refused.reason.code === 'ALREADY_EXISTS',
    'the squatted create is refused',
  );
  t.same(
    numbers(second)
      .filter((n) => n !== 'refused')
      .sort(),
    ['2024-00009', '2024-00010', '2024-00011', '2024-00012'],
    'no gap',
  );
  t.equal((await store.readStream(sequence)).length, 12, 'no reservation for the refused create');

  // An import holds a number the round would take: it is skipped, the round's creates all succeed.
  const imported = await app.request('POST', '/api/v1/travel-entries/import', {
    body: { ...(body as object), entryNumber: '2024-00014', status: 'Approved' },
  });
  t.equal(imported.status, 201, 'an import holds 2024-00014');
  const third = await round(Array.from({ length: 4 }, () => create().run));
  t.same(numbers(third).sort(), ['2024-00013', '2024-00015', '2024-00016', '2024-00017'], 'the imported number is skipped');
  t.equal((await verifyStream(store, sequence))?.status, 'valid', 'the chain holds after the creates went one by one');
});

/** Creates straight into an EntryNumbers of its own, with hand-made entry events, and its tenant-year queue held. */
async function directCreates(t: Test, year: string) {
  const app = await startTestApp(t);
  const numbers = new EntryNumbers(app.rt.store);
  const ctx: CommandContext = {
    tenantId: app.tenant.id,
    now: new Date().toISOString(),
    newId: randomUUID,
    actor: { apiKeyId: app.tenant.apiKeyId },
  };
  const sequence = entryNumberStream(app.tenant.id, year);
  const internals = numbers as unknown as { queued(streamId: string, work: () => Promise<unknown>): Promise<unknown> };
  /** Holds the queue, as an append in flight holds it; resolves to the release. */
  const hold = async (): Promise<() => void> => {
    const gate = { release: undefined as (() => void) | undefined };
    void internals.queued(sequence, () => new Promise<void>((r) => (gate.release = r)));
    while (gate.release === undefined) await new Promise((r) => setImmediate(r));
    return gate.release;
  };
  const create = (value: number) => {
    const streamId = `travelEntry-${randomUUID()}`;
    return numbers.appendCreated(ctx, year, streamId.slice('travelEntry-'.length), randomUUID(), {
      streamId,
      decided: [{ type: 'TravelEntryCreated', data: { value, entryNumber: '' } }],
      chain: (events) => eventsToAppend(events, ctx, randomUUID(), { streamId, revision: undefined, lastHash: undefined }),
      withNumber: (events, entryNumber) => events.map((e) => ({ ...e, data: { ...e.data, entryNumber } })),
    });
  };
  const reservations = async () => app.rt.store.readStream(sequence);
  return { store: app.rt.store, sequence, hold, create, reservations };
}

t.test('a create whose own events cannot be made fails alone; the batch goes on without it', async (t) => {
  const { store, sequence, hold, create, reservations } = await directCreates(t, '2023');
  const release = await hold();
  // Infinity has no canonical JSON, so that create's events cannot be hashed.
  const batch = [1, Infinity, 3].map(create);
  release();
  const settled = await Promise.allSettled(batch);
  t.same(
    settled.map((s) => s.status),
    ['fulfilled', 'rejected', 'fulfilled'],
    'only the create that cannot be hashed fails',
  );
  const numbers = (await reservations()).map((e) => (e.data as { entryNumber: string }).entryNumber);
  t.same(numbers, ['2023-00001', '2023-00002'], 'the others take consecutive numbers');
  t.equal((await verifyStream(store, sequence))?.status, 'valid');
});

t.test('a batch holds at most 32 creates: more waiting go in the append after', async (t) => {
  const { store, sequence, hold, create, reservations } = await directCreates(t, '2022');
  const release = await hold();
  const batch = Array.from({ length: 40 }, (_, i) => create(i));
  release();
  const settled = await Promise.allSettled(batch);
  t.ok(
    settled.every((s) => s.status === 'fulfilled'),
    'every create succeeded',
  );
  const stored = await reservations();
  t.same(
    stored.map((e) => (e.data as { entryNumber: string }).entryNumber),
    Array.from({ length: 40 }, (_, i) => `2022-${String(i + 1).padStart(5, '0')}`),
    'consecutive numbers',
  );
  const perCommit = new Map<string, number>();
  for (const e of stored) perCommit.set(String(e.position.commit), (perCommit.get(String(e.position.commit)) ?? 0) + 1);
  t.same([...perCommit.values()], [32, 8], 'two appends: 32 creates, then 8');
  t.equal((await verifyStream(store, sequence))?.status, 'valid');
});
