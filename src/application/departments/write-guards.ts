// What runs around every department write besides its decision: the code claim (unique codes among
// the company's active departments, src/application/code-claims) and the parent claim (no cycles
// under concurrency, ./hierarchy.ts). Both run in beforeAppend, after the write's own decision passed;
// the parent first, so a refused edge claims no code. `release` (after the append) lets go of an old code.
import type { CommandContext } from '../../domain/decider.js';
import { activeCode, departmentDecider, streamName, type DepartmentEvent, type DepartmentState } from '../../domain/departments/index.js';
import type { EventStore } from '../../eventstore/port.js';
import { UniqueCodes } from '../code-claims/unique-codes.js';
import { DepartmentHierarchy } from './hierarchy.js';

export class DepartmentWriteGuards {
  private readonly codes: UniqueCodes<DepartmentState, DepartmentEvent>;
  private readonly hierarchy: DepartmentHierarchy;

  constructor(store: EventStore) {
    this.codes = new UniqueCodes(store, { kind: 'department', field: 'code', activeCode, streamName, decider: departmentDecider });
    this.hierarchy = new DepartmentHierarchy(store);
  }

  /** The write's beforeAppend (pass it to handleCommand) and its release (call it after the append). */
  around(ctx: CommandContext, correlationId: string, departmentId: string) {
    const claims = this.codes.around(ctx, correlationId, departmentId);
    return {
      beforeAppend: async (events: DepartmentEvent[], state: DepartmentState): Promise<void> => {
        await this.hierarchy.beforeAppend(ctx, correlationId, events, state);
        await claims.beforeAppend(events, state);
      },
      release: claims.release,
    };
  }
}
