// The functional core's shape (emmett / fmodel): a decider folds past events into state and
// decides new events from a command. Pure: time, ids and the acting party come in with the
// command's context; nothing in src/domain performs I/O.

/** Who acted and when: supplied by the shell, recorded in every event's metadata. */
export interface CommandContext {
  tenantId: string;
  /** ISO 8601 UTC instant of the command. */
  now: string;
  /** Fresh ids the decider may use (event ids are assigned by the shell). */
  newId: () => string;
  actor: { apiKeyId?: string; employeeId?: string; system?: string };
}

export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export interface Decider<Command, State, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Returns the events that record the command, or throws a DomainError. */
  decide: (command: Command, state: State, ctx: CommandContext) => Event[];
}

export function fold<State, Event extends DomainEvent>(
  d: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
  events: Event[],
): State {
  return events.reduce(d.evolve, d.initialState());
}
