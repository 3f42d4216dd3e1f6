// Auto-disable: 10 consecutive Exhausted deliveries switch a subscription off (isActive false,
// disabledAt, disabledReason) and it gets no new deliveries; a Succeeded delivery resets the count;
// a Failed one (the partner said 4xx) neither counts nor resets.
import t from 'tap';
import { sql } from 'kysely';
import type { ReceiverAnswer } from '../../helpers/https-receiver.js';
import { registerEmployee, sleep, startWebhookHarness, waitFor } from '../../helpers/webhook-harness.js';

t.test('auto-disable after 10 consecutive Exhausted deliveries', async (t) => {
  const h = await startWebhookHarness(t);
  const { app } = h;
  let answer: ReceiverAnswer = { status: 500 };
  h.receiver.respondWith(() => answer);
  const tenant = await app.newTenant();
  const as = { key: tenant.key };
  const sub = await h.subscribe(['employee.created'], { path: '/dead', key: tenant.key });
  const count = async () =>
    (
      await sql<{ n: number }>`select consecutive_exhausted as n from webhook_subscriptions where id = ${sub.id}::uuid`.execute(
        app.rt.handle.db,
      )
    ).rows[0]!.n;
  const subscription = async () => (await app.request('GET', `/api/v1/webhooks/${sub.id}`, as)).body;

  let emitted = 0;
  /** One event, then wait until its delivery has settled in `status`. */
  const deliverOne = async (status: string) => {
    await registerEmployee(app, { firstName: `E${emitted++}` }, tenant.key);
    return waitFor(
      async () => {
        const list = await app.request('GET', `/api/v1/webhooks/${sub.id}/deliveries?pageSize=1`, as);
        return list.body.total === emitted && list.body.items[0].status === status ? list.body.items[0] : undefined;
      },
      30_000,
      `delivery ${emitted} ${status}`,
    );
  };

  for (let i = 0; i < 9; i++) await deliverOne('Exhausted');
  t.equal(await count(), 9);
  t.equal((await subscription()).isActive, true, 'nine are not enough');

  answer = { status: 200 };
  await deliverOne('Succeeded');
  t.equal(await count(), 0, 'a Succeeded delivery resets the count');

  answer = { status: 500 };
  for (let i = 0; i < 5; i++) await deliverOne('Exhausted');
  answer = { status: 404 };
  await deliverOne('Failed');
  t.equal(await count(), 5, 'a Failed delivery neither counts nor resets');
  answer = { status: 500 };
  for (let i = 0; i < 4; i++) await deliverOne('Exhausted');
  t.equal((await subscription()).isActive, true);
  await deliverOne('Exhausted');

  const disabled = await subscription();
  t.match(disabled, { isActive: false, disabledAt: String, disabledReason: /10 consecutive deliveries were exhausted/ });
  t.ok(Math.abs(Date.parse(disabled.disabledAt) - Date.now()) < 10_000);
  const listed = (await app.request('GET', '/api/v1/webhooks', as)).body.items.find((s: { id: string }) => s.id === sub.id);
  t.match(listed, { isActive: false, disabledReason: String });

  const before = h.received('/dead').length;
  await registerEmployee(app, { firstName: 'Ignored' }, tenant.key);
  await sleep(500);
  t.equal((await app.request('GET', `/api/v1/webhooks/${sub.id}/deliveries`, as)).body.total, emitted, 'no new delivery row');
  t.equal(h.received('/dead').length, before, 'nothing sent');
  t.equal((await app.request('POST', `/api/v1/webhooks/${sub.id}/reactivate`, as)).status, 404, 'there is no reactivation');
});
