// The department hierarchy decider: a parent claim that may close a cycle (through recorded parents
// or parents still pending on a department's current revision) is refused, 400 parentId; claims on
// older revisions no longer count; a claim repeated is recorded once; and, in any interleaving of
// writes that read, claim and land (or lose their append), no cycle is ever stored.
import t from 'tap';
import fc from 'fast-check';
import {
  departmentHierarchyDecider,
  walkAncestors,
  type ClaimDepartmentParent,
  type DepartmentHierarchyEvent,
  type DepartmentHierarchyState,
  type RecordedParent,
} from '../../../src/domain/departments/index.js';
import { fold } from '../../../src/domain/decider.js';
import { DomainError } from '../../../src/domain/errors.js';
import { givenWhenThen, TEST_NOW, testContext } from '../../helpers/given-when-then.js';

const scenario = givenWhenThen(departmentHierarchyDecider);
const [A, B, C, D] = ['a', 'b', 'c', 'd'].map((x) => `d0000000-0000-4000-8000-00000000000${x}`) as [string, string, string, string];
const claimed = (departmentId: string, parentId: string | null, basedOn = 0): DepartmentHierarchyEvent => ({
  type: 'DepartmentParentClaimed',
  data: { departmentId, parentId, basedOn, at: TEST_NOW },
});
const claim = (
  departmentId: string,
  parentId: string | null,
  recorded: Record<string, RecordedParent> = {},
  basedOn = 0,
): ClaimDepartmentParent => ({ type: 'ClaimDepartmentParent', data: { departmentId, parentId, basedOn, recorded } });
const at = (parentId: string | null, revision = 0): RecordedParent => ({ parentId, revision });
const empty: DepartmentHierarchyState = { claims: {} };

t.test('an edge that crosses a pending claim is refused, keyed parentId', async (t) => {
  scenario(t)
    .given([claimed(A, B)])
    .when(claim(B, A, { [A]: at(null) }))
    .thenThrows('VALIDATION_FAILED', ['parentId']);
  scenario(t)
    .given([claimed(A, B), claimed(B, C)])
    .when(claim(C, A, { [A]: at(null), [B]: at(null) }))
    .thenThrows('VALIDATION_FAILED', ['parentId']);
  scenario(t).given([]).when(claim(A, A)).thenThrows('VALIDATION_FAILED', ['parentId']);
});

t.test('two writes pending on one revision of a department: both edges count until one lands', async (t) => {
  // A's writes to B and to D both read revision 0; either may still land, so neither parent may go under A.
  scenario(t)
    .given([claimed(A, B), claimed(A, D)])
    .when(claim(B, A, { [A]: at(null) }))
    .thenThrows('VALIDATION_FAILED', ['parentId']);
  scenario(t)
    .given([claimed(A, B), claimed(A, D)])
    .when(claim(D, A, { [A]: at(null) }))
    .thenThrows('VALIDATION_FAILED', ['parentId']);
});

t.test('recorded parents count as much as claimed ones', async (t) => {
  scenario(t)
    .given([])
    .when(claim(C, A, { [A]: at(B), [B]: at(C.toUpperCase()) }))
    .thenThrows('VALIDATION_FAILED', ['parentId']);
});

t.test('claims on a revision the department has moved past no longer count', async (t) => {
  // A's claim of B was based on revision 0; A's stream is at revision 2 and records no parent.
  scenario(t)
    .given([claimed(A, B)])
    .when(claim(B, A, { [A]: at(null, 2) }))
    .then([claimed(B, A)]);
});

t.test('a safe edge is claimed; the same claim again records nothing; a stale write records nothing', async (t) => {
  scenario(t)
    .given([])
    .when(claim(A, B.toUpperCase(), { [B]: at(null) }))
    .then([claimed(A, B)]);
  scenario(t)
    .given([claimed(A, B)])
    .when(claim(A, B, { [B]: at(null) }))
    .then([]);
  scenario(t)
    .given([claimed(A, B, 3)])
    .when(claim(A, C, { [C]: at(null) }, 2))
    .then([], 'decided on revision 2 while a claim is based on 3: its own append will conflict');
  scenario(t)
    .given([claimed(A, B)])
    .when(claim(A, null))
    .then([claimed(A, null)], 'removing a parent is a claim too');
  t.same(
    fold(departmentHierarchyDecider, [claimed(A, B), claimed(A, D), claimed(B, C, 1), claimed(B, null, 2)]).claims,
    { [A]: { basedOn: 0, parents: [B, D] }, [B]: { basedOn: 2, parents: [null] } },
    'claims on one revision add up; a later revision replaces them',
  );
});

t.test('the walk names what it still needs, and the decider refuses to guess', async (t) => {
  t.same(walkAncestors(A, B, { claims: { [B]: { basedOn: 0, parents: [C] } } }, {}), { cycle: false, missing: [B] });
  t.same(walkAncestors(A, B, empty, { [B]: at(C), [C]: at(null) }), { cycle: false, missing: [] });
  t.same(walkAncestors(A, B, empty, { [B]: at(C), [C]: at(B) }), { cycle: false, missing: [] }, 'a stored cycle elsewhere stops the walk');
  t.throws(() => departmentHierarchyDecider.decide(claim(A, B), empty, testContext()), /lacks/);
});

type Step = { kind: 'start'; department: string; parent: string | null } | { kind: 'claim' | 'land'; pick: number };

/**
 * A model of the shell: each department's stream (parent, revision); writes that read a department
 * (start), claim their parent change on the hierarchy (claim: the shell reads the streams it walks)
 * and append at the revision they read (land: lost when the stream moved on). Whether, after any
 * step, the streams hold a cycle.
 */
function storesCycle(ids: readonly string[], steps: readonly Step[]): boolean {
  let state = departmentHierarchyDecider.initialState();
  const streams: Record<string, RecordedParent> = Object.fromEntries(ids.map((id) => [id, at(null)]));
  type Write = { department: string; parent: string | null; basedOn: number; claimed: boolean };
  let writes: Write[] = [];
  for (const s of steps) {
    if (s.kind === 'start') {
      writes.push({ department: s.department, parent: s.parent, basedOn: streams[s.department]!.revision, claimed: false });
      continue;
    }
    const w = writes[s.pick % Math.max(writes.length, 1)];
    if (w === undefined) continue;
    if (s.kind === 'claim' && !w.claimed) {
      try {
        const events = departmentHierarchyDecider.decide(claim(w.department, w.parent, { ...streams }, w.basedOn), state, testContext());
        state = events.reduce(departmentHierarchyDecider.evolve, state);
        w.claimed = true;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        writes = writes.filter((x) => x !== w); // refused: the write records nothing
      }
    } else if (s.kind === 'land' && w.claimed) {
      const stream = streams[w.department]!;
      if (stream.revision === w.basedOn) streams[w.department] = { parentId: w.parent, revision: stream.revision + 1 };
      writes = writes.filter((x) => x !== w); // landed, or lost its append (a retry starts anew)
    }
    if (ids.some((id) => walkAncestors(id, streams[id]!.parentId, empty, streams).cycle)) return true;
  }
  return false;
}

t.test('the race of two pending writes of one department and a crossing one stores no cycle', async (t) => {
  const steps: Step[] = [
    { kind: 'start', department: A, parent: B },
    { kind: 'start', department: A, parent: C },
    { kind: 'claim', pick: 0 },
    { kind: 'claim', pick: 1 },
    { kind: 'start', department: B, parent: A },
    { kind: 'claim', pick: 2 }, // refused: A may still land under B
    { kind: 'land', pick: 0 },
    { kind: 'land', pick: 1 },
  ];
  t.equal(storesCycle([A, B, C], steps), false);
});

t.test('property: in any interleaving of writes, no cycle is ever stored', async (t) => {
  const ids = [A, B, C];
  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant('start' as const),
        department: fc.constantFrom(...ids),
        parent: fc.option(fc.constantFrom(...ids), { nil: null }),
      }),
      weight: 1,
    },
    { arbitrary: fc.record({ kind: fc.constantFrom('claim' as const, 'land' as const), pick: fc.nat({ max: 7 }) }), weight: 2 },
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => !storesCycle(ids, steps)),
    { numRuns: 3000 },
  );
  t.pass('no stored cycle');
});
