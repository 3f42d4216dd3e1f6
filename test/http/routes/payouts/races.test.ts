// The chaos-test findings of issue 7 over real HTTP: concurrent batches for the same entries.
// Before the batch process, every loser's batch stayed stored as Created listing the entry (an
// ERP would pay it again), and overlapping batches answered "No such travel entry".
import t from 'tap';
import { startTestApp, type TestApp } from '../../../helpers/app.js';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const RACERS = 8;

async function approvedEntry(app: TestApp, employeeId: string): Promise<string> {
  const e = await app.request('POST', '/api/v1/travel-entries', {
    body: {
      employeeId,
      departureDate: '2025-04-14',
      returnDate: '2025-04-15',
      travelType: 'Domestic',
      currencyCode: 'EUR',
      advancePayment: 50,
    },
  });
  if (e.status !== 201) throw new Error(e.text);
  const s = await app.request('POST', `/api/v1/travel-entries/${e.body.id}/submit`);
  if (s.body.status !== 'Approved') throw new Error(s.text);
  return e.body.id;
}

const pay = (app: TestApp, entryIds: string[]) =>
  app.request('POST', '/api/v1/payouts/batches', { body: { entryIds, payoutMethod: 'BankTransfer', payoutDate: '2025-04-30' } });

async function allBatches(app: TestApp): Promise<
  Array<{
    id: string;
    status: string;
    entryIds: string[];
    requestedEntryIds: string[];
    rejectedEntries: Array<{ entryId: string; code: string; reason: string; payoutBatchId?: string }>;
  }>
> {
  const out = [];
  for (let page = 1; ; page++) {
    const r = await app.request('GET', `/api/v1/payouts/batches?page=${page}&pageSize=200`);
    out.push(...r.body.items);
    if (out.length >= r.body.total) return out;
  }
}

t.test('payout races', async (t) => {
  const app = await startTestApp(t);
  const emp = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Race', lastName: 'Condition' } })).body.id;

  t.test(`${RACERS} concurrent batches for one entry, ${ROUNDS} rounds: exactly one batch holds it`, async (t) => {
    for (let round = 0; round < ROUNDS; round++) {
      const entry = await approvedEntry(app, emp);
      const answers = await Promise.all(Array.from({ length: RACERS }, () => pay(app, [entry])));
      const won = answers.filter((a) => a.status === 201);
      const lost = answers.filter((a) => a.status !== 201);
      t.equal(won.length, 1, `round ${round}: one 201`);
      t.ok(
        lost.every((a) => a.status === 409),
        `round ${round}: every other answer is 409`,
      );
      const winner = won[0]!.body.id as string;
      t.strictSame(won[0]!.body.entryIds, [entry], `round ${round}: the winner lists the entry`);
      for (const l of lost) {
        // Refused by the pre-check (nothing stored) or by the entry stream (a Rejected batch
        // stored with the reason); either way the reason names the batch that holds the entry.
        t.ok(l.body.code === 'PAYOUT_BATCH_REJECTED' || l.body.code === 'ALREADY_PAID_OUT', `round ${round}: ${l.text}`);
        if (l.body.code === 'PAYOUT_BATCH_REJECTED') {
          t.match(l.body.rejectedEntries, [{ entryId: entry, code: 'ALREADY_PAID_OUT', payoutBatchId: winner }]);
        } else {
          t.match(l.body, { entryId: entry, payoutBatchId: winner }, `round ${round}: the pre-check names the holder too`);
        }
      }
      const holding = (await allBatches(app)).filter((b) => b.entryIds.includes(entry));
      t.strictSame(
        holding.map((b) => [b.id, b.status]),
        [[winner, 'Created']],
        `round ${round}: exactly one batch lists the entry`,
      );
      const paid = await app.request('GET', `/api/v1/travel-entries/${entry}`);
      t.equal(paid.body.payoutBatchId, winner, `round ${round}: the entry names the winning batch`);
    }
    const stored = await allBatches(app);
    t.ok(
      stored.filter((b) => b.status !== 'Created').every((b) => b.status === 'Rejected' && b.entryIds.length === 0),
      'every loser batch stored lists no entry',
    );
    t.notOk(
      stored.some((b) => b.status === 'Processing'),
      'no batch is left processing',
    );
  });

  t.test('overlapping batches {e0,e1} and {e1,e2}: e1 is in one of them, the other names the real reason', async (t) => {
    for (let round = 0; round < 5; round++) {
      const [e0, e1, e2] = [await approvedEntry(app, emp), await approvedEntry(app, emp), await approvedEntry(app, emp)];
      const [a, b] = await Promise.all([pay(app, [e0!, e1!]), pay(app, [e1!, e2!])]);
      const answers = [a, b];
      t.ok(
        answers.every((x) => x.status === 201 || x.status === 409),
        `round ${round}: 201 or 409`,
      );
      for (const x of answers)
        t.notMatch(x.text, /No such travel entry/, `round ${round}: never "No such travel entry" for an entry that exists`);
      const batches = (await allBatches(app)).filter((x) => x.requestedEntryIds.some((id) => [e0, e1, e2].includes(id)));
      const holders = batches.filter((x) => x.entryIds.includes(e1!));
      t.equal(holders.length, 1, `round ${round}: exactly one batch holds e1`);
      const holder = holders[0]!;
      for (const x of batches) {
        if (x.id === holder.id) continue;
        t.notOk(x.entryIds.includes(e1!), `round ${round}: the other batch does not list e1`);
        t.match(x.rejectedEntries, [{ entryId: e1, code: 'ALREADY_PAID_OUT', payoutBatchId: holder.id }], `round ${round}: and says why`);
      }
      // Each entry is listed by the batch its own stream names, and by no other.
      for (const id of [e0!, e1!, e2!]) {
        const entry = (await app.request('GET', `/api/v1/travel-entries/${id}`)).body;
        const listing = batches.filter((x) => x.entryIds.includes(id)).map((x) => x.id);
        t.strictSame(
          listing,
          entry.isPaidOut ? [entry.payoutBatchId] : [],
          `round ${round}: ${id} is listed by the batch that paid it only`,
        );
      }
      const partial = answers.find((x) => x.status === 201 && x.body.rejectedEntries.length > 0);
      if (partial)
        t.strictSame(
          partial.body.entryIds.length + partial.body.rejectedEntries.length,
          2,
          `round ${round}: a partial batch answers what it took and what not`,
        );
    }
  });
});
