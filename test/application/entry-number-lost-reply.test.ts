// A batch of creates whose append got no answer (a cut connection): whether it committed and the
// reply was lost, or the request never arrived, every create of the batch must end with its entry. Failing them would send each
// client to create its entry again (the idempotency key is dropped on a 5xx): one lost reply,
// up to 32 duplicate entries. PostgreSQL only: the reply is lost on a real TCP hop in front of it.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { eventsToAppend } from '../../src/application/command-handler.js';
import { EntryNumbers, entryNumberStream } from '../../src/application/travel-entries/entry-numbers.js';
import type { CommandContext } from '../../src/domain/decider.js';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import { TEST_DATABASE_URL } from '../helpers/db.js';
import { openStoreBehindCutter } from '../helpers/store-behind-cutter.js';

t.test(
  'a batch whose append got no answer: every create ends with its entry, once',
  { skip: TEST_DATABASE_URL === undefined && 'needs PostgreSQL (DATABASE_URL): the reply is lost on a TCP hop in front of it' },
  async (t) => {
    const { direct, cutter, store } = await openStoreBehindCutter(t);

    const tenantId = randomUUID();
    const ctx: CommandContext = { tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { apiKeyId: randomUUID() } };
    const numbers = new EntryNumbers(store);
    const created = new Map<Promise<unknown>, string>(); // each create's entry stream
    const create = () => {
      const streamId = `travelEntry-${randomUUID()}`;
      const written = numbers.appendCreated(ctx, '2026', streamId.slice('travelEntry-'.length), randomUUID(), {
        streamId,
        decided: [{ type: 'TravelEntryCreated', data: { entryNumber: '' } }],
        chain: (events) => eventsToAppend(events, ctx, randomUUID(), { streamId, revision: undefined, lastHash: undefined }),
        withNumber: (events, entryNumber) => events.map((e) => ({ ...e, data: { entryNumber } })),
      });
      created.set(written, streamId);
      return written;
    };
    const numberOf = (w: { decided: unknown[] }) => (w.decided[0] as { data: { entryNumber: string } }).data.entryNumber;
    const sequence = entryNumberStream(tenantId, '2026');
    await create(); // the sequence exists, and the append statement is prepared on the hop's connection

    // Five creates gather behind the tenant-year's queue, held as an append in flight holds it; the
    // hop then loses their append's reply (it committed) or its request (it never arrived).
    const internals = numbers as unknown as {
      queued(streamId: string, work: () => Promise<unknown>): Promise<unknown>;
      openBatches?: Map<string, unknown[]>;
    };
    const number = (n: number) => `2026-${String(n).padStart(5, '0')}`;
    for (const [round, lose] of (['reply', 'request'] as const).entries()) {
      const first = 2 + round * 5; // after the first create, five per round
      const gate = { release: undefined as (() => void) | undefined };
      void internals.queued(sequence, () => new Promise<void>((r) => (gate.release = r)));
      while (gate.release === undefined) await new Promise((r) => setImmediate(r));
      const batch = Array.from({ length: 5 }, () => create());
      for (let waited = 0; waited < 10_000 && internals.openBatches?.get(sequence)?.length !== batch.length; waited += 10) {
        await new Promise((r) => setTimeout(r, 10));
      }
      cutter.arm('es_append_all', lose);
      gate.release();
      const settled = await Promise.allSettled(batch);

      t.equal(cutter.cut, round + 1, `the append lost its ${lose}`);
      t.same(
        settled.map((s) => s.status),
        Array(5).fill('fulfilled'),
        `every create succeeded: ${settled.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok')).join(', ')}`,
      );
      const reservations = await createPostgresEventStore(direct).readStream(sequence);
      t.same(
        reservations.map((e) => (e.data as { entryNumber: string }).entryNumber),
        Array.from({ length: first + 4 }, (_, i) => number(i + 1)),
        'each number reserved once',
      );
      for (const [i, s] of settled.entries()) {
        if (s.status !== 'fulfilled') continue;
        const [entry] = await store.readStream(created.get(batch[i]!)!);
        t.same(s.value.result.position, entry?.position, `create ${first + i}: its entry is stored, at the position it was answered with`);
        t.equal(numberOf(s.value), number(first + i));
      }
    }
    t.equal(numberOf(await create()), number(12), 'the next create numbers on');
  },
);
