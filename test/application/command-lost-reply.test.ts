// A command whose append got no answer (a cut connection): whether it committed and the reply was
// lost, or the request never arrived, the command succeeds with its events stored once. Answering
// 503 instead would tell the client nothing was done, and its retry (the idempotency key is dropped
// on a 5xx) would be refused as already done, or recorded twice. PostgreSQL only: the reply is lost
// on a real TCP hop in front of it. The same holds when the server ends the append's session (a
// terminated backend: FATAL, 57P01); a statement the server answered with an error (a NUL in jsonb,
// a cancel) is sent once.
import t from 'tap';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../src/application/command-handler.js';
import type { CommandContext, Decider } from '../../src/domain/decider.js';
import { DomainError } from '../../src/domain/errors.js';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import type { EventStore } from '../../src/eventstore/port.js';
import { TEST_DATABASE_URL, openTestDatabase } from '../helpers/db.js';
import { openStoreBehindCutter } from '../helpers/store-behind-cutter.js';

type Stamped = { type: 'Stamped'; data: { stamp: number } };
type Stamp = { type: 'Stamp'; stamp: number };
// Refuses a stamp already given: a command run twice is told so, as a submit of a submitted entry is.
const stamps: Decider<Stamp, number[], Stamped> = {
  initialState: () => [],
  evolve: (s, e) => [...s, e.data.stamp],
  decide: (c, s) => {
    if (s.includes(c.stamp)) throw new DomainError('INVALID_TRANSITION', `stamp ${c.stamp} was given already`);
    return [{ type: 'Stamped', data: { stamp: c.stamp } }];
  },
};

/** The store, counting the appends sent through it. */
function counting(store: EventStore): { store: EventStore; sent: () => number } {
  let sent = 0;
  return { store: { ...store, appendToStream: (...args) => (sent++, store.appendToStream(...args)) }, sent: () => sent };
}

t.test(
  'a command whose append got no answer succeeds, its events stored once',
  { skip: TEST_DATABASE_URL === undefined && 'needs PostgreSQL (DATABASE_URL): the reply is lost on a TCP hop in front of it' },
  async (t) => {
    const { direct, cutter, store: hopStore } = await openStoreBehindCutter(t);
    const { store, sent } = counting(hopStore);
    const ctx: CommandContext = { tenantId: randomUUID(), now: new Date().toISOString(), newId: randomUUID, actor: { system: 'test' } };
    const streamId = `stamps-${randomUUID()}`;
    const stamp = (n: number) =>
      handleCommand(store, { streamId, decider: stamps, command: { type: 'Stamp', stamp: n }, context: ctx, correlationId: randomUUID() });

    await stamp(1); // the stream exists, and the append statement is prepared on the hop's connection
    for (const [i, lose] of (['reply', 'request'] as const).entries()) {
      cutter.arm('es_append_statement', lose);
      const sentBefore = sent();
      const done = await stamp(2 + i).catch((err: unknown) => void t.fail(`the command failed: ${String(err)}`));
      t.equal(cutter.cut, i + 1, `the append lost its ${lose}`);
      t.equal(sent() - sentBefore, 2, `lost ${lose}: the append was sent twice`);
      const stored = await createPostgresEventStore(direct).readStream(streamId);
      t.same(
        stored.map((e) => (e.data as { stamp: number }).stamp),
        Array.from({ length: 2 + i }, (_, k) => k + 1),
        `lost ${lose}: each stamp stored once, in order`,
      );
      if (done) {
        t.equal(done.revision, 1 + i, `lost ${lose}: answered with the stream's revision`);
        t.same(done.position, stored.at(-1)!.position, `lost ${lose}: answered with the position it is stored at`);
      }
    }
  },
);

t.test('an append the database refused with an error is not sent again', async (t) => {
  // A NUL character is valid JSON but not jsonb: the server answers with an error, the statement
  // rolled back, and sending it again would only fail again.
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const { store: counted, sent } = counting(store);
  const ctx: CommandContext = { tenantId: randomUUID(), now: new Date().toISOString(), newId: randomUUID, actor: { system: 'test' } };
  const nul: Decider<Stamp, number[], { type: 'Noted'; data: { note: string } }> = {
    initialState: () => [],
    evolve: (s) => s,
    decide: () => [{ type: 'Noted', data: { note: 'a\u0000b' } }],
  };
  const failed = await handleCommand(counted, {
    streamId: `notes-${randomUUID()}`,
    decider: nul,
    command: { type: 'Stamp', stamp: 1 },
    context: ctx,
    correlationId: randomUUID(),
  }).then(
    () => undefined,
    (err: unknown) => err as { severity?: string },
  );
  t.type(failed?.severity, 'string', 'the database answered with an error');
  t.equal(sent(), 1, 'the append was sent once');
});

t.test(
  'an append whose backend ended while it waited is sent again and stored once; a cancelled one is not',
  { skip: TEST_DATABASE_URL === undefined && 'needs PostgreSQL (DATABASE_URL): it ends and cancels server backends' },
  async (t) => {
    const handle = await openTestDatabase(t);
    const { store, sent } = counting(createPostgresEventStore(handle));
    const ctx: CommandContext = { tenantId: randomUUID(), now: new Date().toISOString(), newId: randomUUID, actor: { system: 'test' } };
    const streamId = `stamps-${randomUUID()}`;
    const stamp = (n: number) =>
      handleCommand(store, { streamId, decider: stamps, command: { type: 'Stamp', stamp: n }, context: ctx, correlationId: randomUUID() });
    await stamp(1);
    // Another session holds the stream's lock, so the append waits on it, in a backend we can end.
    // A third watches: inside the holder's transaction, pg_stat_activity would stay as first read.
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    const watcher = new pg.Client({ connectionString: TEST_DATABASE_URL });
    for (const c of [holder, watcher]) {
      await c.connect();
      t.teardown(() => c.end());
    }
    const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    // The backend that waits on the holder's lock: ours alone, whatever other test files run beside.
    const waitingAppend = async (): Promise<number> => {
      for (let i = 0; i < 200; i++) {
        const { rows } = await watcher.query<{ pid: number }>(
          'select pid from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))',
          [holderPid],
        );
        if (rows.length === 1) return rows[0]!.pid;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('no append waited on the lock');
    };
    const underLock = async (n: number, end: 'pg_terminate_backend' | 'pg_cancel_backend') => {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(hashtextextended($1::text, 0))', [streamId]);
      const before = sent();
      const outcome = stamp(n).then(
        () => 'done',
        (err: unknown) => err as { code?: string; severity?: string },
      );
      const pid = await waitingAppend();
      if (end === 'pg_terminate_backend') {
        // Waits until the backend is gone, so the next waiter found is the resend, queued on the lock.
        await holder.query('select pg_terminate_backend($1, 5000)', [pid]);
        await waitingAppend();
      } else await holder.query('select pg_cancel_backend($1)', [pid]);
      await holder.query('rollback');
      return { outcome: await outcome, sends: sent() - before };
    };

    const ended = await underLock(2, 'pg_terminate_backend');
    t.equal(ended.outcome, 'done', 'ended backend (57P01, FATAL): the command succeeded');
    t.equal(ended.sends, 2, 'ended backend: the append was sent again');
    const cancelled = await underLock(3, 'pg_cancel_backend');
    t.match(cancelled.outcome, { code: '57014', severity: 'ERROR' }, 'cancelled statement: the server answered, and it is the error');
    t.equal(cancelled.sends, 1, 'cancelled statement: sent once (its statement rolled back)');
    const stored = await createPostgresEventStore(handle).readStream(streamId);
    t.same(
      stored.map((e) => (e.data as { stamp: number }).stamp),
      [1, 2],
      'the stamp whose backend ended stored once; the cancelled one not at all',
    );
  },
);
