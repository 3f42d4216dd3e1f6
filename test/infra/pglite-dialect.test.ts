// Our Kysely dialect for the embedded database (src/infra/pglite-*.ts). It is the embedded
// database's own code, so this file runs on PGlite whether or not DATABASE_URL is set.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAbortedTransactionError, sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/infra/database.js';

interface Tables {
  counters: { id: number; n: number };
}

// One database for the file (opening one is slow); every subtest starts from an empty table.
let handle: DatabaseHandle;
let db: Kysely<Tables>;
t.before(async () => {
  handle = await openDatabase({ dataDir: 'memory://' });
  db = handle.db as unknown as Kysely<Tables>;
  await sql`create table counters (id int primary key, n int not null)`.execute(db);
});
t.teardown(() => handle.close());
t.beforeEach(async () => {
  await db.deleteFrom('counters').execute();
});

const ids = async (): Promise<number[]> => (await db.selectFrom('counters').select('id').orderBy('id').execute()).map((r) => r.id);

t.test('a transaction commits', async (t) => {
  const out = await db.transaction().execute(async (trx) => {
    await trx.insertInto('counters').values({ id: 1, n: 0 }).execute();
    await trx.insertInto('counters').values({ id: 2, n: 0 }).execute();
    return 'done';
  });
  t.equal(out, 'done', 'the callback result comes back');
  t.same(await ids(), [1, 2]);
});

t.test('a transaction whose callback throws rolls back, and the error is the caller’s', async (t) => {
  const boom = new Error('boom');
  await t.rejects(
    db.transaction().execute(async (trx) => {
      await trx.insertInto('counters').values({ id: 1, n: 0 }).execute();
      throw boom;
    }),
    boom,
  );
  t.same(await ids(), [], 'nothing of it stays');
});

t.test('a failing statement inside a transaction rolls the whole transaction back', async (t) => {
  await t.rejects(
    db.transaction().execute(async (trx) => {
      await trx.insertInto('counters').values({ id: 1, n: 0 }).execute();
      await trx.insertInto('counters').values({ id: 1, n: 0 }).execute(); // duplicate key
    }),
    { code: '23505' },
    'the database error surfaces with its SQLSTATE',
  );
  t.same(await ids(), [], 'the first insert is gone too');
});

t.test('a transaction that swallowed a failed statement cannot commit', async (t) => {
  let swallowed: unknown;
  const outcome = await db
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('counters').values({ id: 1, n: 0 }).execute();
      await trx
        .insertInto('counters')
        .values({ id: 1, n: 0 })
        .execute()
        .catch((err: unknown) => (swallowed = err));
    })
    .then(
      () => 'committed',
      (err: unknown) => err,
    );
  t.match(swallowed, { code: '23505' });
  t.ok(isAbortedTransactionError(outcome), 'COMMIT answers as Kysely’s PostgreSQL driver does: AbortedTransactionError');
  t.same(await ids(), [], 'nothing committed');
  await db.insertInto('counters').values({ id: 3, n: 0 }).execute();
  t.same(await ids(), [3], 'and the database is usable afterwards');
});

t.test('errors outside a transaction surface as errors and leave the database usable', async (t) => {
  await t.rejects(sql`selec 1`.execute(db), { code: '42601' }, 'a syntax error');
  await t.rejects(sql`select 1 / 0`.execute(db), { code: '22012' }, 'a runtime error');
  await t.rejects(sql`select * from no_such_table`.execute(db), { code: '42P01' }, 'a missing table');
  t.same((await sql<{ one: number }>`select 1 as one`.execute(db)).rows, [{ one: 1 }]);
});

t.test('a query from outside never runs inside somebody else’s transaction', async (t) => {
  const order: string[] = [];
  let inserted!: () => void;
  const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
  const trx = db
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('counters').values({ id: 1, n: 0 }).execute();
      inserted();
      await sleep(50);
      order.push('transaction ends');
      throw new Error('roll back');
    })
    .catch(() => undefined);
  await insertedNow;
  const seen = await ids();
  order.push('outside read');
  await trx;
  t.same(order, ['transaction ends', 'outside read'], 'the outside read waited for the transaction');
  t.same(seen, [], 'and did not see its rolled-back row');
});

t.test('the PGlite instance itself (handle.pglite) does not cut into a transaction either', async (t) => {
  let inserted!: () => void;
  const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
  const trx = db.transaction().execute(async (trx) => {
    await trx.insertInto('counters').values({ id: 1, n: 0 }).execute();
    inserted();
    await sleep(50);
    await trx.insertInto('counters').values({ id: 2, n: 0 }).execute();
  });
  await insertedNow;
  const direct = await handle.pglite!.query<{ c: number }>('select count(*)::int as c from counters');
  await trx;
  t.equal(direct.rows[0]!.c, 2, 'the direct query saw the committed transaction whole');
});

t.test('concurrent read-modify-write transactions are serialised: no update is lost', async (t) => {
  await db.insertInto('counters').values({ id: 1, n: 0 }).execute();
  const bumps = 20;
  await Promise.all(
    Array.from({ length: bumps }, () =>
      db.transaction().execute(async (trx) => {
        const { n } = await trx.selectFrom('counters').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
        await sleep(1); // let every other caller try to get in between
        await trx
          .updateTable('counters')
          .set({ n: n + 1 })
          .where('id', '=', 1)
          .execute();
      }),
    ),
  );
  const { n } = await db.selectFrom('counters').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
  t.equal(n, bumps);
});

t.test('numAffectedRows counts changed rows as on a server; a SELECT has none', async (t) => {
  const inserted = await db
    .insertInto('counters')
    .values([
      { id: 1, n: 0 },
      { id: 2, n: 0 },
      { id: 3, n: 5 },
    ])
    .executeTakeFirst();
  t.equal(inserted.numInsertedOrUpdatedRows, 3n);
  const updated = await db.updateTable('counters').set({ n: 1 }).where('n', '=', 0).executeTakeFirst();
  t.equal(updated.numUpdatedRows, 2n);
  const deleted = await db.deleteFrom('counters').where('id', '=', 3).executeTakeFirst();
  t.equal(deleted.numDeletedRows, 1n);
  const selected = await db.executeQuery(sql`select id from counters`.compile(db));
  t.equal(selected.numAffectedRows, undefined);
  t.equal(selected.rows.length, 2);
});

t.test('savepoints roll back part of a transaction', async (t) => {
  const trx = await db.startTransaction().execute();
  await trx.insertInto('counters').values({ id: 1, n: 0 }).execute();
  const sp = await trx.savepoint('before "two"').execute();
  await sp.insertInto('counters').values({ id: 2, n: 0 }).execute();
  await sp.rollbackToSavepoint('before "two"').execute();
  await trx.commit().execute();
  t.same(await ids(), [1]);
});

t.test('a read-only transaction refuses writes and releases the database', async (t) => {
  await t.rejects(
    db
      .transaction()
      .setAccessMode('read only')
      .execute((trx) => trx.insertInto('counters').values({ id: 1, n: 0 }).execute()),
    { code: '25006' },
  );
  const level = await db
    .transaction()
    .setIsolationLevel('serializable')
    .execute(async (trx) => (await sql<{ l: string }>`select current_setting('transaction_isolation') as l`.execute(trx)).rows[0]!.l);
  t.equal(level, 'serializable', 'the isolation level is applied');
  await db.insertInto('counters').values({ id: 1, n: 0 }).execute();
  t.same(await ids(), [1]);
});
