// The delivery log list while the dispatcher writes: a page and its total describe the same moment.
// They used to be two statements (on two pool connections on PostgreSQL), so a delivery that turned
// Failed in between was counted in `total` but missing from `items`: the deliveries API test once
// read `total: 4` and found only three items on the page.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { listDeliveries } from '../../../src/webhooks/delivery/log.js';
import { openTestDatabase } from '../../helpers/db.js';

t.test('items and total of a page come from one snapshot while statuses change', async (t) => {
  const { db } = await openTestDatabase(t);
  const tenantId = randomUUID();
  const subscriptionId = randomUUID();
  await sql`insert into webhook_subscriptions (id, tenant_id, url, event_types, secret_sealed)
    values (${subscriptionId}::uuid, ${tenantId}::uuid, 'https://partner.example/hook', ${['employee.created']}, 'sealed')`.execute(db);
  const N = 30;
  const ids = Array.from({ length: N }, () => randomUUID());
  for (const [i, id] of ids.entries()) {
    await sql`insert into webhook_deliveries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, next_attempt_at, created_at)
      values (${id}::uuid, ${subscriptionId}::uuid, ${tenantId}::uuid, gen_random_uuid(), gen_random_uuid(), 'employee.created', convert_to('{}', 'UTF8'), 'Pending', now(),
        now() - make_interval(secs => ${N - i}))`.execute(db);
  }

  // The writer settles deliveries one statement at a time (as the dispatcher does), round after
  // round; the reader lists the Failed ones meanwhile. The writer goes on until the reader has read
  // often enough (how fast either runs depends on the machine), within a deadline.
  const ROUNDS = 6;
  const MIN_READS = 20;
  const deadline = Date.now() + 30_000;
  let reads = 0;
  let writing = true;
  const writer = (async () => {
    try {
      for (let round = 0; round < ROUNDS || (reads < MIN_READS && Date.now() < deadline); round++) {
        for (const id of ids)
          await sql`update webhook_deliveries set status = 'Failed', attempt_count = attempt_count + 1 where id = ${id}::uuid`.execute(db);
        await sql`update webhook_deliveries set status = 'Pending' where subscription_id = ${subscriptionId}::uuid`.execute(db);
      }
    } finally {
      writing = false;
    }
  })();
  const mismatches: string[] = [];
  while (writing) {
    const page1 = await listDeliveries(db, tenantId, subscriptionId, { page: 1, pageSize: 200, status: 'Failed' });
    reads++;
    if (page1.items.length !== page1.total) mismatches.push(`page 1: ${page1.items.length} items, total ${page1.total}`);
    if (page1.items.some((d) => d.status !== 'Failed')) mismatches.push('page 1: an item of another status');
    const page2 = await listDeliveries(db, tenantId, subscriptionId, { page: 2, pageSize: 10, status: 'Failed' });
    const expected = Math.min(10, Math.max(0, page2.total - 10));
    if (page2.items.length !== expected) mismatches.push(`page 2 of 10: ${page2.items.length} items, total ${page2.total}`);
  }
  await writer;
  t.ok(reads >= MIN_READS, `the reader overlapped the writer (${reads} reads)`);
  t.same(mismatches.slice(0, 5), [], `every page agrees with its total (${mismatches.length} of ${reads * 2} did not)`);

  // An empty page still reports the total; an unknown filter value matches nothing.
  const beyond = await listDeliveries(db, tenantId, subscriptionId, { page: 9, pageSize: 10 });
  t.same([beyond.items, beyond.total], [[], N]);
  const none = await listDeliveries(db, tenantId, subscriptionId, { page: 1, pageSize: 10, status: 'Exhausted' });
  t.same([none.items, none.total], [[], 0]);
  // Newest first, across pages.
  const all = [
    ...(await listDeliveries(db, tenantId, subscriptionId, { page: 1, pageSize: 7 })).items,
    ...(await listDeliveries(db, tenantId, subscriptionId, { page: 2, pageSize: 7 })).items,
    ...(await listDeliveries(db, tenantId, subscriptionId, { page: 5, pageSize: 7 })).items,
  ];
  t.same(
    all.slice(0, 14).map((d) => d.deliveryId),
    [...ids].reverse().slice(0, 14),
  );
  t.same(
    all.slice(14).map((d) => d.deliveryId),
    [ids[1], ids[0]],
  );
});
