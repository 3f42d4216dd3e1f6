// The department hierarchy on a real event store (PGlite or PostgreSQL): many crossing re-parentings
// run at once through the one write path, each deciding on a read model that has not seen the others
// (no ancestors known), so only the hierarchy stream can stop a cycle. No cycle is ever stored: every
// pair (A under B, B under A) has exactly one winner, every ring of three exactly one loser (400
// parentId), and the departments' own streams hold no cycle after any round.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { handleCommand, loadStream } from '../../../src/application/command-handler.js';
import { DepartmentWriteGuards } from '../../../src/application/departments/write-guards.js';
import type { CommandContext } from '../../../src/domain/decider.js';
import { departmentDecider, streamName, type DepartmentFacts } from '../../../src/domain/departments/index.js';
import { DomainError } from '../../../src/domain/errors.js';
import { createPostgresEventStore } from '../../../src/eventstore/postgres/index.js';
import { openTestDatabase } from '../../helpers/db.js';

const ROUNDS = 8;
const PAIRS = 4;
const RINGS = 3;
/** What a read model that has not seen the other writes answers: the parent exists, no ancestors. */
const staleFacts: DepartmentFacts = { lookupErrors: {}, parentChain: [] };

t.test('concurrent crossing re-parentings never store a cycle', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const tenantId = randomUUID();
  const ctx = (): CommandContext => ({ tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'test' } });
  const guards = new DepartmentWriteGuards(store);

  const write = async (id: string, parentId: string | null, create = false) => {
    const c = ctx();
    const correlationId = randomUUID();
    const around = guards.around(c, correlationId, id);
    const fields = { name: `Dept ${id.slice(0, 4)}`, parentId };
    await handleCommand(store, {
      streamId: streamName(id),
      decider: departmentDecider,
      context: c,
      correlationId,
      ...(create ? { mustNotExist: true } : { mustExist: { notFoundMessage: 'Department was not found.' } }),
      command: create
        ? { type: 'CreateDepartment', data: { departmentId: id, fields, facts: staleFacts } }
        : { type: 'ReplaceDepartment', data: { departmentId: id, fields, facts: staleFacts } },
      beforeAppend: around.beforeAppend,
    });
    await around.release();
  };
  const outcome = (p: Promise<void>) =>
    p.then(
      () => 'ok' as const,
      (err: unknown) => {
        if (err instanceof DomainError && err.code === 'VALIDATION_FAILED' && Object.keys(err.errors ?? {}).join() === 'parentId')
          return 'refused' as const;
        throw err;
      },
    );

  const ids = Array.from({ length: PAIRS * 2 + RINGS * 3 }, () => randomUUID());
  for (const id of ids) await write(id, null, true);

  const cycleStored = async (): Promise<boolean> => {
    const parents = new Map<string, string | null>();
    for (const id of ids) {
      const { state } = await loadStream(store, streamName(id), departmentDecider, tenantId);
      parents.set(id, state.kind === 'Existing' ? state.department.parentId : null);
    }
    return ids.some((start) => {
      const seen = new Set<string>();
      for (let p = parents.get(start) ?? null; p !== null && !seen.has(p); p = parents.get(p) ?? null) {
        if (p === start) return true;
        seen.add(p);
      }
      return false;
    });
  };

  for (let round = 0; round < ROUNDS; round++) {
    const groups: Promise<string>[][] = [];
    for (let p = 0; p < PAIRS; p++) {
      const [a, b] = [ids[2 * p]!, ids[2 * p + 1]!];
      groups.push([outcome(write(a, b)), outcome(write(b, a))]);
    }
    for (let r = 0; r < RINGS; r++) {
      const ring = ids.slice(PAIRS * 2 + 3 * r, PAIRS * 2 + 3 * r + 3);
      groups.push(ring.map((id, i) => outcome(write(id, ring[(i + 1) % 3]!))));
    }
    const results = await Promise.all(groups.map((g) => Promise.all(g)));
    results.forEach((g, i) =>
      t.equal(g.filter((o) => o === 'refused').length, 1, `round ${round}, ${i < PAIRS ? 'pair' : 'ring'} ${i}: exactly one refused`),
    );
    t.equal(await cycleStored(), false, `round ${round}: no cycle stored`);
    // Some rounds reset to a flat list at once too (removing a parent is a claim as well).
    await Promise.all(ids.map((id) => write(id, null)));
  }
});
