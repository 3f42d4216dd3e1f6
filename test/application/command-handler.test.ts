// The one write path on a real event store: concurrent commands on one stream all land through the
// bounded retry; a command that keeps losing answers 409; If-Match mismatches are 412 at once; a
// rejected command writes nothing; tenant isolation holds on the write side too.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { handleCommand, COMMAND_RETRIES } from '../../src/application/command-handler.js';
import { DomainError } from '../../src/domain/errors.js';
import type { CommandContext, Decider } from '../../src/domain/decider.js';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import type { EventStore } from '../../src/eventstore/port.js';
import { openTestDatabase } from '../helpers/db.js';

type Counted = { type: 'Counted'; data: { by: number } };
type Count = { type: 'Count'; by: number };
const counter: Decider<Count, number, Counted> = {
  initialState: () => 0,
  evolve: (s, e) => s + e.data.by,
  decide: (c) => {
    if (c.by <= 0) throw new DomainError('VALIDATION_FAILED', 'by must be positive', { by: ['Must be positive.'] });
    return [{ type: 'Counted', data: { by: c.by } }];
  },
};
const ctx = (tenantId: string): CommandContext => ({
  tenantId,
  now: new Date().toISOString(),
  newId: randomUUID,
  actor: { system: 'test' },
});

t.test('command handler', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const tenant = randomUUID();

  // A create skips the read; the 'no_stream' append is what refuses an existing stream, in any tenant.
  t.test('a create on a stream that exists is 409 ALREADY_EXISTS and writes nothing', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    const create = (tenantId: string) =>
      handleCommand(store, {
        streamId,
        decider: counter,
        command: { type: 'Count', by: 1 },
        context: ctx(tenantId),
        correlationId: 'c',
        mustNotExist: true,
      });
    t.equal((await create(tenant)).revision, 0);
    await t.rejects(create(tenant), { code: 'ALREADY_EXISTS', status: 409 });
    await t.rejects(create(randomUUID()), { code: 'ALREADY_EXISTS', status: 409 }, 'another tenant cannot take the id either');
    t.equal((await store.readStream(streamId)).length, 1);
  });

  t.test('concurrent commands on one stream all land, each exactly once', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        handleCommand(store, { streamId, decider: counter, command: { type: 'Count', by: 1 }, context: ctx(tenant), correlationId: 'c' }),
      ),
    );
    t.same(
      results.map((r) => r.revision).sort((a, b) => a - b),
      [0, 1, 2, 3, 4, 5, 6, 7],
    );
    const events = await store.readStream(streamId);
    t.equal(events.length, 8);
    t.match(events[0]!.metadata, {
      tenantId: tenant,
      correlationId: 'c',
      actor: { system: 'test' },
      occurredAt: String,
      causationId: String,
      // The hash chain (test/audit/hash-chain.test.ts checks the links).
      hash: /^[0-9a-f]{64}$/,
      previousHash: /^[0-9a-f]{64}$/,
    });
  });

  t.test('a command that keeps losing the race answers 409 CONCURRENCY_CONFLICT', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    await handleCommand(store, { streamId, decider: counter, command: { type: 'Count', by: 1 }, context: ctx(tenant), correlationId: 'c' });
    let attempts = 0;
    // Every attempt, after reading, another writer appends first.
    const rival: EventStore = {
      ...store,
      readStream: async (id, o) => {
        const read = await store.readStream(id, o);
        attempts++;
        await handleCommand(store, {
          streamId,
          decider: counter,
          command: { type: 'Count', by: 1 },
          context: ctx(tenant),
          correlationId: 'rival',
        });
        return read;
      },
    };
    await t.rejects(
      handleCommand(rival, { streamId, decider: counter, command: { type: 'Count', by: 5 }, context: ctx(tenant), correlationId: 'c' }),
      { code: 'CONCURRENCY_CONFLICT', status: 409 },
    );
    t.equal(attempts, COMMAND_RETRIES + 1, 'the whole command was retried, bounded');
    t.notOk(
      (await store.readStream(streamId)).some((e) => (e.data as { by: number }).by === 5),
      'the losing command wrote nothing',
    );
  });

  t.test('If-Match names a stale revision: 412, no retry, nothing written', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    await handleCommand(store, { streamId, decider: counter, command: { type: 'Count', by: 1 }, context: ctx(tenant), correlationId: 'c' });
    await handleCommand(store, { streamId, decider: counter, command: { type: 'Count', by: 1 }, context: ctx(tenant), correlationId: 'c' });
    await t.rejects(
      handleCommand(store, {
        streamId,
        decider: counter,
        command: { type: 'Count', by: 1 },
        context: ctx(tenant),
        correlationId: 'c',
        ifMatch: 0,
      }),
      { code: 'PRECONDITION_FAILED', status: 412, extra: { currentRevision: 1 } },
    );
    const ok = await handleCommand(store, {
      streamId,
      decider: counter,
      command: { type: 'Count', by: 1 },
      context: ctx(tenant),
      correlationId: 'c',
      ifMatch: 1,
    });
    t.same([ok.revision, ok.state], [2, 3]);
  });

  t.test('a rejected command is final and writes nothing', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    await t.rejects(
      handleCommand(store, { streamId, decider: counter, command: { type: 'Count', by: 0 }, context: ctx(tenant), correlationId: 'c' }),
      { code: 'VALIDATION_FAILED', errors: { by: ['Must be positive.'] } },
    );
    t.same(await store.readStream(streamId), []);
  });

  t.test("another tenant's stream is not found, never written", async (t) => {
    const streamId = `counter-${randomUUID()}`;
    await handleCommand(store, { streamId, decider: counter, command: { type: 'Count', by: 1 }, context: ctx(tenant), correlationId: 'c' });
    await t.rejects(
      handleCommand(store, {
        streamId,
        decider: counter,
        command: { type: 'Count', by: 1 },
        context: ctx(randomUUID()),
        correlationId: 'c',
      }),
      { code: 'NOT_FOUND', status: 404 },
    );
    t.equal((await store.readStream(streamId)).length, 1);
  });
});
