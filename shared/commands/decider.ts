import type { RecordedEvent } from '../event-store/event-store.ts';
import type { SnapshotPolicy } from './stream-snapshots.ts';
/**
 * Domain logic as deciders (in the style of Emmett's samples): pure functions, no I/O.
 * `decide` returns the events a command causes or throws a DomainError; `evolve` folds
 * an event into the state. The current time arrives in the command's `metadata.now` (a Date
 * from the service clock), never in its data.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
  /** Long streams keep snapshots of the state (./stream-snapshots.ts). */
  snapshot?: SnapshotPolicy;
}

/** A refused command. `code` names the rule; routes map codes to the spec's statuses and texts. */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string = code,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}

/**
 * The `default` branch of an exhaustive `evolve`: an event type left unhandled is a type
 * error; at run time an event of an unknown type changes nothing.
 */
export function unhandledEvent<State>(_event: never, state: State): State {
  return state;
}

/** The `default` branch of an exhaustive `decide`: a command type left unhandled is a type error. */
export function unknownCommand(_command: never): DomainError {
  return new DomainError('unknown_command');
}

/** A recorded event as the decider's event: its type and data. */
export function toDomainEvent<Event extends DomainEvent>(recorded: RecordedEvent): Event {
  return { type: recorded.type, data: recorded.data } as Event;
}
