// The LISTEN connection the caches rest on must notice its own loss, a silent one too: a backend
// that stops answering without closing the socket (here: the server process stopped with SIGSTOP,
// as a failover without a reset looks from the client) must be reported lost by the heartbeat.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { openListener } from '../../src/infra/listener.js';
import { TEST_DATABASE_URL } from '../helpers/db.js';

t.test('a listener that stops answering is reported lost', { skip: !TEST_DATABASE_URL && 'needs a PostgreSQL server' }, async (t) => {
  const heard: string[] = [];
  let lost: unknown = 'not lost';
  const listener = await openListener({
    connectionString: TEST_DATABASE_URL!,
    channel: 'listener_test',
    heartbeatMs: 200,
    onNotification: (payload) => heard.push(payload),
    onLost: (err) => {
      lost = err;
    },
  });
  t.teardown(() => listener.close());
  await sleep(700);
  t.equal(lost, 'not lost', 'healthy: heartbeats answer');

  const pid = listener.sessionPid()!;
  try {
    process.kill(pid, 'SIGSTOP');
  } catch (err) {
    t.comment(`cannot stop the server process ${pid} from here (${(err as Error).message}); not checked`);
    return;
  }
  try {
    for (const deadline = Date.now() + 10_000; lost === 'not lost' && Date.now() < deadline;) await sleep(50);
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  t.match(String(lost), /heartbeat timed out/, 'the missed heartbeat is reported');
});

t.test('a healthy listener delivers notifications and stays up', { skip: !TEST_DATABASE_URL && 'needs a PostgreSQL server' }, async (t) => {
  const heard: string[] = [];
  let lost = false;
  const listener = await openListener({
    connectionString: TEST_DATABASE_URL!,
    channel: 'listener_test_2',
    heartbeatMs: 100,
    onNotification: (payload) => heard.push(payload),
    onLost: () => {
      lost = true;
    },
  });
  await listener.client.query(`select pg_notify('listener_test_2', 'hello')`);
  for (const deadline = Date.now() + 10_000; heard.length === 0 && Date.now() < deadline;) await sleep(20);
  await sleep(300);
  await listener.close();
  t.same(heard, ['hello']);
  t.equal(lost, false, 'a deliberate close is not a loss');
});
