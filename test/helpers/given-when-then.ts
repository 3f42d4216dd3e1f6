// Decider specifications without I/O: given past events, when a command, then the new events or
// the DomainError it throws (emmett's DeciderSpecification, in tap).
//   scenario(t).given([created]).when(submit).then([submitted]);
//   scenario(t).given([created, submitted]).when(edit).thenThrows('ENTRY_LOCKED');
import type { Test } from 'tap';
import { fold, type CommandContext, type Decider, type DomainEvent } from '../../src/domain/decider.js';
import { DomainError } from '../../src/domain/errors.js';

export const TEST_NOW = '2026-03-10T09:30:00.000Z';

/** A fixed clock and a predictable id sequence (`id-1`, `id-2`, ...), or the ids given. */
export function testContext(opts: { now?: string; ids?: string[] } = {}): CommandContext {
  const queue = [...(opts.ids ?? [])];
  let n = 0;
  return {
    tenantId: 'tenant-1',
    now: opts.now ?? TEST_NOW,
    newId: () => queue.shift() ?? `id-${++n}`,
    actor: { apiKeyId: 'key-1' },
  };
}

export interface Expectation<S, E> {
  /** Asserts the exact events and returns them. */
  then(expected: E[], message?: string): E[];
  /** Runs the command and returns its events without asserting (for `match` or chaining). */
  events(): E[];
  /** The state after the given events and the command's events. */
  state(): S;
  /** Asserts a DomainError with this code (and, when given, exactly these `errors` keys) and returns it. */
  thenThrows(code: string, fieldKeys?: string[]): DomainError;
}

export function givenWhenThen<C, S, E extends DomainEvent>(decider: Decider<C, S, E>) {
  return (t: Test, ctx: CommandContext = testContext()) => ({
    given: (past: E[]) => ({
      when: (command: C): Expectation<S, E> => {
        const run = (): E[] => decider.decide(command, fold(decider, past), ctx);
        return {
          then(expected, message) {
            const actual = run();
            t.strictSame(actual, expected, message ?? 'records the expected events');
            return actual;
          },
          events: run,
          state: () => fold(decider, [...past, ...run()]),
          thenThrows(code, fieldKeys) {
            try {
              const events = run();
              t.fail(`expected DomainError ${code}, got events ${events.map((e) => e.type).join(', ') || '(none)'}`);
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
              t.equal(error.code, code, `throws ${code}: ${error.message}`);
              if (fieldKeys !== undefined)
                t.strictSame(Object.keys(error.errors ?? {}).sort(), [...fieldKeys].sort(), `errors keyed ${fieldKeys.join(', ')}`);
              return error;
            }
            // Only reached after t.fail above; a placeholder so callers can still chain on the result.
            return new DomainError('INTERNAL_ERROR', 'no error thrown');
          },
        };
      },
    }),
  });
}

/** Asserts that `fn` throws a DomainError with `code` and returns it (for helpers outside a decider). */
export function expectDomainError(t: Test, fn: () => unknown, code: string): DomainError | undefined {
  try {
    fn();
    t.fail(`expected DomainError ${code}`);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    t.equal(error.code, code, `throws ${code}: ${error.message}`);
    return error;
  }
  return undefined;
}
