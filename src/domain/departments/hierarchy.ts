// The department hierarchy of one tenant under concurrency (stream `departmentHierarchy-{tenantId}`).
// A parent check that reads the parents cannot stop two concurrent re-parentings that cross (A under
// B while B goes under A): each reads a tree without the other's edge. So every parent change of a
// tenant's departments first claims its new edge on this one stream, appended at the revision its
// check read: of two crossing changes one appends first, the other's append conflicts, and its retry
// decides on facts that include the winner's edge, so it is refused.
//
// The department's own stream stays the record. A claim names the revision of that stream it was
// decided on (`basedOn`): the write can land only as the next event of that revision (the append
// expects it). So the parents a department has or may still get are the one its stream records at
// revision R and those claimed on R (pending writes); claims on older revisions either landed (and
// were superseded by R) or can never land. The check walks up from the new parent along exactly
// these edges (the stream's side is the shell's lookup, `recorded`) and refuses an edge that comes
// back to the department. A claim whose write is refused or lost stays pending until its
// department is written again: it can only refuse a re-parenting that would have been safe.
// See docs/decisions.md, "Department parent cycles under concurrency".
import type { Decider, DomainEvent } from '../decider.js';
import { validationError } from '../errors.js';

export const DEPARTMENT_HIERARCHY_CATEGORY = 'departmentHierarchy';
export const hierarchyStream = (tenantId: string): string => `${DEPARTMENT_HIERARCHY_CATEGORY}-${tenantId}`;

/** Department ids compare case-insensitively (UUIDs as the client wrote them). */
export const departmentKey = (id: string): string => id.toLowerCase();

/** A revision of a department's stream; -1 before the stream exists (a create). */
export type DepartmentRevision = number;

export type DepartmentParentClaimed = DomainEvent<
  'DepartmentParentClaimed',
  { departmentId: string; parentId: string | null; basedOn: DepartmentRevision; at: string }
>;
export type DepartmentHierarchyEvent = DepartmentParentClaimed;

/** A department as its own stream records it now (shell lookup). */
export interface RecordedParent {
  parentId: string | null;
  revision: DepartmentRevision;
}

export type ClaimDepartmentParent = {
  type: 'ClaimDepartmentParent';
  data: {
    departmentId: string;
    parentId: string | null;
    /** The revision of the department's stream the write decided on. */
    basedOn: DepartmentRevision;
    /** Shell lookup, by departmentKey: at least every department the walk from `parentId` reaches (see `walkAncestors`). */
    recorded: Readonly<Record<string, RecordedParent>>;
  };
};

/** Per department (by departmentKey): the parents claimed on the latest revision any claim was based on. */
export interface DepartmentHierarchyState {
  claims: Readonly<Record<string, { basedOn: DepartmentRevision; parents: readonly (string | null)[] }>>;
}

export interface AncestorWalk {
  /** `departmentId` is the new parent or one of its possible ancestors: the edge may close a cycle. */
  cycle: boolean;
  /** Departments the walk reached whose stream is not looked up yet (the shell reads them and walks again). */
  missing: string[];
}

/** The parents a department has or may still get: the recorded one and those pending on its revision. */
function possibleParents(key: string, state: DepartmentHierarchyState, recorded: RecordedParent): (string | null)[] {
  const pending = state.claims[key];
  return pending !== undefined && pending.basedOn >= recorded.revision ? [recorded.parentId, ...pending.parents] : [recorded.parentId];
}

/**
 * Walks up from `parentId` along every possible parent and says whether `departmentId` is reached.
 * Bounded by the departments seen: a cycle stored elsewhere stops it.
 */
export function walkAncestors(
  departmentId: string,
  parentId: string | null,
  state: DepartmentHierarchyState,
  recorded: Readonly<Record<string, RecordedParent>>,
): AncestorWalk {
  const target = departmentKey(departmentId);
  const seen = new Set<string>();
  const missing: string[] = [];
  const queue = parentId === null ? [] : [departmentKey(parentId)];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    if (node === target) return { cycle: true, missing: [] };
    if (seen.has(node)) continue;
    seen.add(node);
    const found = recorded[node];
    if (found === undefined) missing.push(node);
    else for (const next of possibleParents(node, state, found)) if (next !== null) queue.push(departmentKey(next));
  }
  return { cycle: false, missing };
}

export const CYCLE_MESSAGE = 'A department cannot be its own parent or the parent of one of its ancestors.';

function evolve(state: DepartmentHierarchyState, event: DepartmentHierarchyEvent): DepartmentHierarchyState {
  const { departmentId, parentId, basedOn } = event.data;
  const current = state.claims[departmentId];
  if (current !== undefined && current.basedOn > basedOn) return state;
  const parents = current !== undefined && current.basedOn === basedOn ? [...current.parents, parentId] : [parentId];
  return { claims: { ...state.claims, [departmentId]: { basedOn, parents } } };
}

export const departmentHierarchyDecider: Decider<ClaimDepartmentParent, DepartmentHierarchyState, DepartmentHierarchyEvent> = {
  initialState: () => ({ claims: {} }),
  evolve,
  decide: (command, state, ctx) => {
    const { departmentId, parentId, basedOn, recorded } = command.data;
    const walk = walkAncestors(departmentId, parentId, state, recorded);
    if (walk.missing.length > 0) throw new Error(`the hierarchy check lacks the streams of ${walk.missing.join(', ')}`);
    if (walk.cycle) throw validationError({ parentId: [CYCLE_MESSAGE] });
    const key = departmentKey(departmentId);
    const claimed = parentId === null ? null : departmentKey(parentId);
    const current = state.claims[key];
    // Decided on a revision older than a claim's: the write's own append will conflict, and its retry claims anew.
    if (current !== undefined && current.basedOn > basedOn) return [];
    // Claimed already (a retried write): every later claim was checked with this edge in place.
    if (current !== undefined && current.basedOn === basedOn && current.parents.includes(claimed)) return [];
    return [{ type: 'DepartmentParentClaimed', data: { departmentId: key, parentId: claimed, basedOn, at: ctx.now } }];
  },
};
