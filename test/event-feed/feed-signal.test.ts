// The event feed's long polls are woken by LISTEN on PostgreSQL, not by the fallback poll: a
// NOTIFY naming one tenant, sent while the checkpoint the poll reads never moves, wakes that
// tenant's waiter at once and leaves another tenant's waiter asleep. The poll could do neither: it
// wakes only when the checkpoint's version changes, and then it wakes everyone.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { FeedSignal } from '../../src/application/event-feed/feed-signal.js';
import { READ_MODELS_CHANNEL } from '../../projections/checkpoints.js';
import { openTestDatabase, TEST_DATABASE_URL } from '../helpers/db.js';

const PROJECTION = 'event-feed';

/** Resolves true when `p` settles within `ms`, false otherwise. */
const within = (p: Promise<void>, ms: number): Promise<boolean> => Promise.race([p.then(() => true), sleep(ms).then(() => false)]);

t.test(
  'a tenant-addressed NOTIFY wakes that tenant only',
  { skip: !TEST_DATABASE_URL && 'LISTEN needs a PostgreSQL server' },
  async (t) => {
    const handle = await openTestDatabase(t);
    const signal = new FeedSignal({ db: handle.db, projection: PROJECTION, connectionString: TEST_DATABASE_URL });
    t.teardown(() => signal.close());
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(handle.db)).rows[0]!.s;

    // The first waiter starts the LISTEN (and, until it is up, the poll, whose first reading wakes
    // everyone). The LISTEN's arrival is seen through the signal's listener: the only way to tell,
    // from outside, which of the two is watching.
    const first = signal.arm('nobody', 10_000)!;
    t.ok(await within(first.woken, 5_000), 'the first waiter is woken once the watching starts');
    const listening = (): boolean => (signal as unknown as { listener?: { up: boolean } }).listener?.up === true;
    for (const deadline = Date.now() + 5_000; !listening() && Date.now() < deadline;) await sleep(20);
    t.ok(listening(), 'the LISTEN is up');

    const [mine, other] = [randomUUID(), randomUUID()];
    const woken = signal.arm(mine, 10_000)!;
    const asleep = signal.arm(other, 10_000)!;
    t.teardown(() => asleep.cancel());
    await sql`select pg_notify(${READ_MODELS_CHANNEL}, ${`${schema}|${PROJECTION}|1|${mine}`})`.execute(handle.db);
    t.ok(await within(woken.woken, 2_000), "the named tenant's waiter wakes");
    t.notOk(await within(asleep.woken, 300), "another tenant's waiter sleeps on: the wake-up was the NOTIFY, addressed");

    // Another schema's announcement (the channel is database-wide) wakes nobody here. Notifications
    // arrive in order: once a control NOTIFY sent after it has woken its waiter, the foreign one has
    // been handled too.
    const stranger = signal.arm(mine, 10_000)!;
    t.teardown(() => stranger.cancel());
    const control = randomUUID();
    const controlled = signal.arm(control, 10_000)!;
    await sql`select pg_notify(${READ_MODELS_CHANNEL}, ${`not_${schema}|${PROJECTION}|1|${mine}`})`.execute(handle.db);
    await sql`select pg_notify(${READ_MODELS_CHANNEL}, ${`${schema}|${PROJECTION}|1|${control}`})`.execute(handle.db);
    t.ok(await within(controlled.woken, 2_000), 'the control NOTIFY, sent after the foreign one, arrived');
    t.notOk(await within(stranger.woken, 0), "another schema's NOTIFY is ignored");
  },
);

// Seen as a CI flake (session 12): the poll's first reading, still in flight when the LISTEN came up
// and the poll stopped, later woke every waiter, also those armed after the stop.
t.test(
  'a reading of a poll stopped meanwhile wakes nobody',
  { skip: !TEST_DATABASE_URL && 'LISTEN needs a PostgreSQL server' },
  async (t) => {
    const handle = await openTestDatabase(t, { poolSize: 1 });
    const signal = new FeedSignal({ db: handle.db, projection: PROJECTION, connectionString: TEST_DATABASE_URL });
    t.teardown(() => signal.close());
    // The pool's one connection held: the poll's first reading waits for it, and the LISTEN (a
    // connection of its own) comes up first and wakes the first waiter.
    let release!: () => void;
    const held = handle.db.connection().execute(() => new Promise<void>((r) => (release = r)));
    t.teardown(() => release?.());
    const first = signal.arm('nobody', 10_000)!;
    t.ok(await within(first.woken, 5_000), 'the first waiter is woken by the LISTEN coming up');
    const later = signal.arm(randomUUID(), 10_000)!;
    t.teardown(() => later.cancel());
    release();
    await held;
    t.notOk(await within(later.woken, 500), "the stopped poll's reading, now answered, wakes no one");
  },
);
