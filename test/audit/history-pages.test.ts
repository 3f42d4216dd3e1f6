// readHistory's reads: a page that reaches the stream's end learns the total from its own read (one
// event more than asked for), a page in the middle reads the head too; every page checks its first
// link against the event before it, and answers the same total and next revision either way.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../src/application/command-handler.js';
import { readHistory } from '../../src/application/audit/history.js';
import type { CommandContext, Decider } from '../../src/domain/decider.js';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import { openTestDatabase } from '../helpers/db.js';

type Counted = { type: 'Counted'; data: { by: number } };
const counter: Decider<{ by: number }, number, Counted> = {
  initialState: () => 0,
  evolve: (s, e) => s + e.data.by,
  decide: (c) => [{ type: 'Counted', data: { by: c.by } }],
};

t.test('pages of a 7-event stream', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const tenantId = randomUUID();
  const streamId = `counter-${randomUUID()}`;
  const context: CommandContext = { tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'test' } };
  for (let i = 0; i < 7; i++) await handleCommand(store, { streamId, decider: counter, command: { by: i }, context, correlationId: 'c' });

  const page = async (from: number, limit: number) => {
    const h = await readHistory(store, handle.db, streamId, tenantId, { from, limit });
    return (
      h && {
        revisions: h.items.map((i) => i.revision),
        valid: h.items.every((i) => i.hashValid === true),
        total: h.total,
        next: h.nextRevision,
      }
    );
  };
  t.same(await page(0, 3), { revisions: [0, 1, 2], valid: true, total: 7, next: 3 }, 'first page, more to come');
  t.same(await page(3, 3), { revisions: [3, 4, 5], valid: true, total: 7, next: 6 }, 'a middle page');
  t.same(await page(4, 3), { revisions: [4, 5, 6], valid: true, total: 7, next: undefined }, 'ends exactly at the head');
  t.same(await page(6, 3), { revisions: [6], valid: true, total: 7, next: undefined }, 'a short last page');
  t.same(await page(0, 7), { revisions: [0, 1, 2, 3, 4, 5, 6], valid: true, total: 7, next: undefined }, 'all in one page');
  t.same(await page(0, 50), { revisions: [0, 1, 2, 3, 4, 5, 6], valid: true, total: 7, next: undefined }, 'a page larger than the stream');
  t.same(await page(7, 3), { revisions: [], valid: true, total: 7, next: undefined }, 'right after the head');
  t.same(await page(20, 3), { revisions: [], valid: true, total: 7, next: undefined }, 'far past the head');
  t.equal(await readHistory(store, handle.db, streamId, randomUUID(), { from: 0, limit: 3 }), undefined, 'another tenant: none');
  t.equal(await readHistory(store, handle.db, streamId, randomUUID(), { from: 6, limit: 3 }), undefined, 'another tenant, last page: none');
  t.equal(await readHistory(store, handle.db, `counter-${randomUUID()}`, tenantId, { from: 0, limit: 3 }), undefined, 'no stream');
  t.equal(
    await readHistory(store, handle.db, `counter-${randomUUID()}`, tenantId, { from: 5, limit: 3 }),
    undefined,
    'no stream, a later page',
  );
});
