// Closing the runtime runs every step even when one fails. With the database frozen, Fastify's
// close gave up on a hook (AVV_ERR_READY_TIMEOUT), the later steps never ran, and the process stayed
// up in "stopping" with its projections and webhook worker still at work (an operator's chaos try,
// session 24). Fastify's close is made to fail here as avvio failed it there.
import t from 'tap';
import { startTestApp } from '../helpers/app.js';

t.test('a failing step of the close does not keep the others from running; its error is thrown after', async (t) => {
  const app = await startTestApp(t);
  const api = app.rt.app!;
  const fastifyClose = api.close.bind(api);
  const timedOut = Object.assign(new Error("Plugin did not start in time: ''"), { code: 'AVV_ERR_READY_TIMEOUT' });
  api.close = (() => Promise.reject(timedOut)) as unknown as typeof api.close;
  const subscriptions = (app.rt.runner as unknown as { subscriptions: Map<string, unknown> }).subscriptions;
  t.ok(subscriptions.size > 0, 'the projections run');

  await t.rejects(app.rt.close(), { code: 'AVV_ERR_READY_TIMEOUT' }, 'the failure is reported');
  t.equal(subscriptions.size, 0, 'and the projections were stopped all the same');
  await fastifyClose();
});
