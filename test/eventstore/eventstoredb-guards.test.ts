// The EventStoreDB adapter's guards that need no server (the rest of the adapter is held to the
// contract suite, which needs one). Each guard answers a finding of the adapter's review; see
// docs/eventstoredb.md, "Guards".
import t from 'tap';
import { ClosingGuard } from '../../src/eventstore/eventstoredb/closing-guard.js';
import {
  connectionStringProblem,
  isTrustedCheckpoint,
  serverGroupName,
  serverVersionProblem,
} from '../../src/eventstore/eventstoredb/server-checks.js';

t.test('servers before 23.10 and servers that do not say their version are refused', async (t) => {
  for (const v of ['23.10.0.0', '24.10.5.0', '25.1.0.0', '30.0.0']) t.equal(serverVersionProblem(v), undefined, v);
  for (const v of ['23.6.0.0', '22.10.3.0', '21.10.0.0']) t.match(serverVersionProblem(v), /too old: 23\.10 or later/, v);
  t.match(serverVersionProblem('unknown'), /did not report its version/);
  t.match(serverVersionProblem(undefined), /did not report its version/);
});

t.test('throwOnAppendFailure=false is refused, in any letter case; other settings pass', async (t) => {
  t.match(connectionStringProblem('esdb://h:2113?tls=false&throwOnAppendFailure=false'), /throwOnAppendFailure=false/);
  t.match(connectionStringProblem('esdb://h:2113?THROWONAPPENDFAILURE=False'), /throwOnAppendFailure=false/);
  t.equal(connectionStringProblem('esdb://h:2113?tls=false&throwOnAppendFailure=true'), undefined);
  t.equal(connectionStringProblem('esdb://h:2113?tls=false'), undefined);
  t.equal(connectionStringProblem('esdb://h:2113'), undefined);
});

t.test('a server checkpoint is trusted only below 2^63 and at or before the head read first', async (t) => {
  const head = { commit: 1_000n, prepare: 1_000n };
  t.ok(isTrustedCheckpoint({ commit: 500n, prepare: 500n }, head));
  t.ok(isTrustedCheckpoint(head, head), 'the head itself');
  t.notOk(isTrustedCheckpoint({ commit: 1_001n, prepare: 1_001n }, head), 'past the head (25.0.0 sends the end of the log)');
  const max = (1n << 64n) - 1n;
  t.notOk(isTrustedCheckpoint({ commit: max, prepare: max }, { commit: max, prepare: max }), '(2^64-1, 2^64-1) from 24.10.0-24.10.4');
  t.notOk(isTrustedCheckpoint({ commit: 1n << 63n, prepare: 0n }, undefined), 'commit 2^63');
  t.notOk(isTrustedCheckpoint({ commit: 1n, prepare: 1n }, undefined), 'an empty store has no head to be at or before');
});

t.test('a consumer group name on the server carries a hash of its filter', async (t) => {
  const a = serverGroupName('webhook-catalog', { categories: ['travelEntry', 'employee'] });
  t.match(a, /^webhook-catalog-f[0-9a-f]{12}$/);
  t.equal(serverGroupName('webhook-catalog', { categories: ['employee', 'travelEntry'] }), a, 'the order of a list does not matter');
  t.not(serverGroupName('webhook-catalog', { categories: ['travelEntry', 'employee', 'department'] }), a, 'a new category: a new group');
  t.not(serverGroupName('webhook-catalog', { eventTypes: ['travelEntry', 'employee'] }), a, 'types are not categories');
  t.not(serverGroupName('webhook-catalog', undefined), a);
  t.not(serverGroupName('other', { categories: ['travelEntry', 'employee'] }), a);
});

t.test('calls in flight when the adapter closes fail instead of hanging; later calls fail at once', async (t) => {
  const guard = new ClosingGuard();
  t.equal(await guard.run(async () => 42), 42, 'a call that settles passes its value through');
  const hanging = guard.run(() => new Promise<number>(() => undefined));
  guard.close();
  await t.rejects(hanging, /closed/);
  await t.rejects(
    guard.run(async () => 1),
    /closed/,
  );
});
