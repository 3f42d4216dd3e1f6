// The shell side of unique codes (src/domain/code-claims): a resource write claims the code its new
// state carries before its own append (a refused write claims nothing; two concurrent writers of one
// code: one wins, the other is 409 CODE_TAKEN), and releases the code its old state carried after
// the append (archive, delete, a changed code). Every append goes through handleCommand.
import type { CommandContext, Decider, DomainEvent } from '../../domain/decider.js';
import { codeClaimDecider, codeClaimStream, codeKey, type CodeKind } from '../../domain/code-claims/index.js';
import type { EventStore } from '../../eventstore/port.js';
import { handleCommand, loadStream } from '../command-handler.js';

export interface UniqueCode<S, E extends DomainEvent> {
  kind: CodeKind;
  /** The request field that carries the code. */
  field: string;
  /** The code a state carries while active; null when it has none, or is archived or deleted. */
  activeCode: (state: S) => string | null;
  /** The resource's own stream and decider, to see whether a claim's holder still carries its code. */
  streamName: (id: string) => string;
  decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>;
}

export class UniqueCodes<S, E extends DomainEvent> {
  constructor(
    private readonly store: EventStore,
    private readonly spec: UniqueCode<S, E>,
  ) {}

  private keyOf(code: string | null): string | null {
    return code === null ? null : codeKey(this.spec.kind, code);
  }

  /**
   * The write's claim and release around its append: `beforeAppend` claims the new code (pass it to
   * handleCommand), `release` (after the append) lets go of the old one.
   */
  around(ctx: CommandContext, correlationId: string, holderId: string) {
    let before: S | undefined;
    let after: S | undefined;
    return {
      beforeAppend: async (events: E[], state: S): Promise<void> => {
        before = state;
        after = events.reduce(this.spec.decider.evolve, state);
        const code = this.spec.activeCode(after);
        if (code !== null && this.keyOf(code) !== this.keyOf(this.spec.activeCode(state)))
          await this.claim(ctx, correlationId, holderId, code);
      },
      release: async (): Promise<void> => {
        if (before === undefined || after === undefined) return;
        const old = this.spec.activeCode(before);
        if (old !== null && this.keyOf(old) !== this.keyOf(this.spec.activeCode(after)))
          await this.release(ctx, correlationId, holderId, old);
      },
    };
  }

  async claim(ctx: CommandContext, correlationId: string, holderId: string, code: string): Promise<void> {
    const { kind, field } = this.spec;
    await handleCommand(this.store, {
      streamId: codeClaimStream(ctx.tenantId, kind, code),
      decider: codeClaimDecider,
      context: ctx,
      correlationId,
      command: async (state) => ({
        type: 'ClaimCode' as const,
        data: {
          kind,
          code,
          holderId,
          field,
          currentHolderCarriesCode:
            state.holder === undefined || state.holder === holderId ? false : await this.carries(ctx, state.holder, code),
        },
      }),
    });
  }

  async release(ctx: CommandContext, correlationId: string, holderId: string, code: string): Promise<void> {
    await handleCommand(this.store, {
      streamId: codeClaimStream(ctx.tenantId, this.spec.kind, code),
      decider: codeClaimDecider,
      context: ctx,
      correlationId,
      command: { type: 'ReleaseCode', data: { kind: this.spec.kind, code, holderId } },
    });
  }

  /** Whether the holder's own stream carries the code as an active resource now. */
  private async carries(ctx: CommandContext, holderId: string, code: string): Promise<boolean> {
    const loaded = await loadStream(this.store, this.spec.streamName(holderId), this.spec.decider, ctx.tenantId);
    return this.keyOf(this.spec.activeCode(loaded.state)) === codeKey(this.spec.kind, code);
  }
}
