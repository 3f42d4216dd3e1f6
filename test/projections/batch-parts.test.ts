// Projections fold a large batch in parts and send each part's writes while folding the next
// (projections/pending-writes.ts). A batch of many parts must leave exactly the rows that the same
// events leave applied one at a time; and a batch whose write fails must commit nothing.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/infra/database.js';
import { features } from '../../src/features/index.js';
import { employeeDecider, streamName, type EmployeeEvent, type EmployeeFields } from '../../src/domain/employees/index.js';
import type { RecordedEvent } from '../../src/eventstore/port.js';
import { EVENT_FEED_PROJECTION } from '../../projections/event-feed/projection.js';
import type { Projection } from '../../projections/projection.js';
import { PendingWrites } from '../../projections/pending-writes.js';
import { openTestDatabase } from '../helpers/db.js';

const projections = features.flatMap((f) => f.projections ?? []);
const employees = projections.find((p) => p.name === 'employees')!;
const eventFeed = projections.find((p) => p.name === EVENT_FEED_PROJECTION)!;

// Three parts of the employees projection (100, 100 and 60 rows), two of the event feed (500 and 20 events).
const EMPLOYEES = 260;

const fields = (i: number, position: string): EmployeeFields => ({
  firstName: `Ana${i}`,
  lastName: 'Horvat',
  email: `ana${i}@example.hr`,
  phone: null,
  address: null,
  taxId: null,
  bankAccountNumber: null,
  bankIdentifierCode: null,
  position,
  departmentId: null,
  status: 'Active',
  isAccountOwner: false,
  residency: 'Resident',
});

/** Every employee registered, then every one changed: 520 events over 260 streams. */
function history(tenantId: string): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  const streams = Array.from({ length: EMPLOYEES }, () => ({ id: randomUUID(), state: employeeDecider.initialState(), revision: -1 }));
  let position = 0n;
  const at = (i: number) => new Date(Date.UTC(2026, 2, 1, 8, 0, i)).toISOString();
  for (const [round, command] of (['RegisterEmployee', 'ReplaceEmployee'] as const).entries()) {
    for (const [i, s] of streams.entries()) {
      const now = at(round * EMPLOYEES + i);
      const ctx = { tenantId, now, newId: randomUUID, actor: { system: 'batch-parts test' } };
      const decided = employeeDecider.decide(
        { type: command, data: { employeeId: s.id, fields: fields(i, round === 0 ? 'Engineer' : 'Lead'), customFieldDefinitions: [] } },
        s.state,
        ctx,
      ) as EmployeeEvent[];
      for (const e of decided) {
        s.state = employeeDecider.evolve(s.state, e);
        position += 1n;
        out.push({
          id: randomUUID(),
          streamId: streamName(s.id),
          revision: ++s.revision,
          type: e.type,
          data: e.data,
          metadata: { tenantId, correlationId: randomUUID(), causationId: randomUUID(), occurredAt: now, actor: ctx.actor },
          position: { commit: position, prepare: position },
          recordedAt: new Date(now),
        });
      }
    }
  }
  return out;
}

async function rowsOf(handle: DatabaseHandle, projection: Projection): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const table of projection.tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(handle.db)).rows;
    out.push(rows.map(({ sync_seq: _, ...r }) => JSON.stringify(r)).sort());
  }
  return out;
}

const apply = (handle: DatabaseHandle, projection: Projection, events: RecordedEvent[]) =>
  handle.db.transaction().execute((trx) => projection.apply(trx, events));

t.test('one batch in several parts leaves the rows of one event at a time', async (t) => {
  const tenantId = randomUUID();
  const events = history(tenantId);
  t.equal(events.length, 2 * EMPLOYEES);
  for (const projection of [employees, eventFeed]) {
    const whole = await openTestDatabase(t);
    const single = await openTestDatabase(t);
    const changed = await apply(whole, projection, events);
    for (const e of events) await apply(single, projection, [e]);
    const [wholeRows, singleRows] = [await rowsOf(whole, projection), await rowsOf(single, projection)];
    t.same(wholeRows, singleRows, `${projection.name}: the same rows`);
    t.equal((wholeRows[0] as unknown[]).length, projection === employees ? EMPLOYEES : events.length, `${projection.name}: every row`);
    if (projection === employees) {
      t.equal((changed as string[]).length, EMPLOYEES, 'every row reported changed');
      t.equal(new Set(changed as string[]).size, EMPLOYEES, '... once');
    } else t.same(changed, [tenantId], 'the tenant announced');
  }
});

t.test('a batch whose first part fails while the next is folded commits none of its parts', async (t) => {
  const handle = await openTestDatabase(t);
  const events = history(randomUUID());
  // A check that only the first employee's row breaks: its upsert is in the first of three parts, so
  // it fails while the second is folded, and the parts sent after it meet an aborted transaction.
  const first = (events[0]!.data as { employeeId: string }).employeeId;
  await sql`alter table rm_employees add constraint no_first check (id <> ${sql.lit(first)}::uuid)`.execute(handle.db);
  await t.rejects(apply(handle, employees, events), /no_first/, 'the batch fails with the first failure');
  const count = await sql<{ n: number }>`select count(*)::int as n from rm_employees`.execute(handle.db);
  t.equal(count.rows[0]!.n, 0, 'no part of it was committed');
});

t.test('PendingWrites: a failed write fails the batch; a fold that throws waits for what it sent', async (t) => {
  const handle = await openTestDatabase(t);
  await t.rejects(
    handle.db.transaction().execute((trx) =>
      PendingWrites.around(async (writes) => {
        writes.send(sql`select 1/0`.execute(trx));
        await writes.turn();
        writes.send(sql`select 1`.execute(trx));
      }),
    ),
    /division by zero/,
  );
  // Two writes queued on the transaction's connection, the first slow, then the fold throws. Had the
  // error come out at once, the rollback would go ahead of the queued insert, which would then run
  // outside the transaction and stay committed.
  await sql`create table pending_writes_probe (x int)`.execute(handle.db);
  let finished = false;
  await t.rejects(
    handle.db.transaction().execute((trx) =>
      PendingWrites.around(async (writes) => {
        writes.send(sql`select pg_sleep(0.2)`.execute(trx));
        writes.send(
          sql`insert into pending_writes_probe values (1)`.execute(trx).then(() => {
            finished = true;
          }),
        );
        throw new Error('fold failed');
      }),
    ),
    /fold failed/,
  );
  t.ok(finished, 'the writes sent before the throw had finished when the error came out');
  await new Promise((r) => setTimeout(r, 300));
  const probe = await sql<{ n: number }>`select count(*)::int as n from pending_writes_probe`.execute(handle.db);
  t.equal(probe.rows[0]!.n, 0, 'and were rolled back with the transaction');
});
