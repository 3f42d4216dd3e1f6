// A server shutting down answers its held long polls at once (an empty page with the same cursor)
// instead of keeping them, and its own exit, for up to 30 seconds.
import t from 'tap';
import { startTestApp } from '../helpers/app.js';

t.test('closing the server releases held long polls', async (t) => {
  const app = await startTestApp(t);
  const cursor = (await app.request('GET', '/api/v1/events')).body.nextCursor;
  const started = Date.now();
  const polling = app.request('GET', `/api/v1/events?after=${cursor}&wait=30`);
  await new Promise((r) => setTimeout(r, 500));
  const closing = app.rt.close();
  const res = await polling;
  await closing;
  t.equal(res.status, 200);
  t.same(res.body, { items: [], nextCursor: cursor });
  t.ok(Date.now() - started < 10_000, `answered on shutdown (${Date.now() - started} ms), not after the 30 s wait`);
});
