// stateAt reads an as-of-instant point in chunks up to the first event after the instant; the answer
// must be the whole stream's fold cut at that instant, at every point (chunk edges included), and a
// revision point must fold exactly up to that revision.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../src/application/command-handler.js';
import { stateAt } from '../../src/application/audit/state-as-of.js';
import type { CommandContext, Decider } from '../../src/domain/decider.js';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import { openTestDatabase } from '../helpers/db.js';

type Counted = { type: 'Counted'; data: { by: number } };
/** The state lists every `by` folded, so a wrong cut shows which events were missed or added. */
const counter: Decider<{ by: number }, number[], Counted> = {
  initialState: () => [],
  evolve: (s, e) => [...s, e.data.by],
  decide: (c) => [{ type: 'Counted', data: { by: c.by } }],
};
const EVENTS = 140; // more than two chunks

t.test('as of every instant and revision of a long stream', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const tenantId = randomUUID();
  const streamId = `counter-${randomUUID()}`;
  const context: CommandContext = { tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'test' } };
  for (let i = 0; i < EVENTS; i++)
    await handleCommand(store, { streamId, decider: counter, command: { by: i }, context, correlationId: 'c' });
  const events = await store.readStream(streamId);
  t.equal(events.length, EVENTS);

  /** The reference: the whole stream folded up to the last event recorded at or before the instant. */
  const expectedAt = (ms: number) => {
    const upTo = events.filter((e) => e.recordedAt.getTime() <= ms);
    return upTo.length === 0
      ? undefined
      : { state: upTo.map((e) => (e.data as { by: number }).by), revision: upTo.length - 1, recordedAt: upTo[upTo.length - 1]!.recordedAt };
  };
  const instants = [...new Set(events.flatMap((e) => [e.recordedAt.getTime() - 1, e.recordedAt.getTime()]))];
  instants.push(events[EVENTS - 1]!.recordedAt.getTime() + 60_000);
  let mismatches = 0;
  for (const ms of instants) {
    const got = await stateAt(store, streamId, counter, tenantId, { asOf: new Date(ms) });
    if (JSON.stringify(got) !== JSON.stringify(expectedAt(ms))) mismatches += 1;
  }
  t.equal(mismatches, 0, `${instants.length} instants, from before the first event to after the last`);
  t.equal(await stateAt(store, streamId, counter, tenantId, { asOf: new Date(0) }), undefined, 'before the first event');

  for (const revision of [0, 62, 63, 64, 65, 127, 128, EVENTS - 1]) {
    const got = await stateAt(store, streamId, counter, tenantId, { revision });
    t.same(
      got,
      { state: Array.from({ length: revision + 1 }, (_, i) => i), revision, recordedAt: events[revision]!.recordedAt },
      `revision ${revision}`,
    );
  }
  t.equal(await stateAt(store, streamId, counter, tenantId, { revision: EVENTS }), undefined, 'past the last revision');
  t.equal(await stateAt(store, streamId, counter, randomUUID(), { asOf: new Date() }), undefined, 'another tenant');
  t.equal(await stateAt(store, streamId, counter, randomUUID(), { revision: 3 }), undefined, 'another tenant, a revision');
  t.equal(await stateAt(store, `counter-${randomUUID()}`, counter, tenantId, { asOf: new Date() }), undefined, 'no stream');
});
