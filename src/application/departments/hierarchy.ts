// The shell side of the department hierarchy (src/domain/departments/hierarchy.ts): a department
// write whose decision changes the department's parent (a create with a parent included) claims the
// new edge on the tenant's hierarchy stream in its beforeAppend, after its own decision passed and
// before its own append. The claim goes through handleCommand: a concurrent claim makes its append
// conflict, and the retry reads the departments' streams again and decides on the winner's edge.
// A refused claim (the edge may close a cycle) is a 400 keyed `parentId` and the write records nothing.
import type { CommandContext } from '../../domain/decider.js';
import {
  departmentDecider,
  departmentHierarchyDecider,
  hierarchyStream,
  streamName,
  walkAncestors,
  type DepartmentEvent,
  type DepartmentHierarchyState,
  type DepartmentRevision,
  type DepartmentState,
  type RecordedParent,
} from '../../domain/departments/index.js';
import type { EventStore } from '../../eventstore/port.js';
import { handleCommand, loadStream } from '../command-handler.js';

/** The parent a department state carries (none before creation). */
const parentOf = (state: DepartmentState): string | null => (state.kind === 'Absent' ? null : state.department.parentId);
const sameParent = (a: string | null, b: string | null): boolean => (a?.toLowerCase() ?? null) === (b?.toLowerCase() ?? null);

export class DepartmentHierarchy {
  constructor(private readonly store: EventStore) {}

  /** The beforeAppend of a department write: claims the new parent when the decision changes it. */
  async beforeAppend(ctx: CommandContext, correlationId: string, events: DepartmentEvent[], state: DepartmentState): Promise<void> {
    const after = events.reduce(departmentDecider.evolve, state);
    if (after.kind !== 'Existing') return;
    const parentId = parentOf(after);
    if (sameParent(parentOf(state), parentId)) return; // no new edge (a create without a parent included)
    // The revision the write will append after, or a later one (then its append conflicts and it claims again).
    const basedOn =
      state.kind === 'Absent'
        ? -1
        : ((await this.store.readStream(streamName(after.department.id), { direction: 'backwards', maxCount: 1 }))[0]?.revision ?? -1);
    await this.claim(ctx, correlationId, after.department.id, parentId, basedOn);
  }

  async claim(
    ctx: CommandContext,
    correlationId: string,
    departmentId: string,
    parentId: string | null,
    basedOn: DepartmentRevision,
  ): Promise<void> {
    await handleCommand(this.store, {
      streamId: hierarchyStream(ctx.tenantId),
      decider: departmentHierarchyDecider,
      context: ctx,
      correlationId,
      command: async (state) => ({
        type: 'ClaimDepartmentParent' as const,
        data: { departmentId, parentId, basedOn, recorded: await this.recorded(ctx.tenantId, departmentId, parentId, state) },
      }),
    });
  }

  /** Every department the walk from `parentId` reaches, as its own stream records it now. */
  private async recorded(
    tenantId: string,
    departmentId: string,
    parentId: string | null,
    state: DepartmentHierarchyState,
  ): Promise<Record<string, RecordedParent>> {
    const recorded: Record<string, RecordedParent> = {};
    for (;;) {
      const { cycle, missing } = walkAncestors(departmentId, parentId, state, recorded);
      if (cycle || missing.length === 0) return recorded;
      const loaded = await Promise.all(missing.map((id) => loadStream(this.store, streamName(id), departmentDecider, tenantId)));
      missing.forEach((id, i) => {
        const { state: s, revision } = loaded[i]!;
        recorded[id] = { parentId: parentOf(s), revision: revision ?? -1 };
      });
    }
  }
}
