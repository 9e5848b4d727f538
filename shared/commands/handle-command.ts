import type { EventMetadata, EventStore, RecordedEvent } from '../event-store/event-store.ts';
import { fold, type Decider, type DomainEvent } from '../domain/decider.ts';
import { retryOnConflict } from './conflict-retry.ts';

/** Metadata every event carries (ARCHITECTURE.md, "Rules the whole code base keeps"). */
export interface CommandMetadata extends EventMetadata {
  command_id: string;
  request_id?: string;
  idempotency_key?: string | null;
  api_key_id?: string | null;
  causation_id?: string | null;
  correlation_id?: string | null;
}

export interface CommandResult<State, Event> {
  /** The events this command appended (empty when the decider decided nothing). */
  events: Event[];
  state: State;
  /** Global position of the last appended event; wait for it before reading projections. */
  position: bigint | undefined;
}

/**
 * Reads the stream, folds it, decides, appends with the expected revision. On a
 * concurrency conflict it reads again and decides again, after a jittered wait, within
 * the time budget of ./conflict-retry.ts.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: CommandMetadata,
): Promise<CommandResult<State, Event>> {
  return retryOnConflict(async () => {
    const recorded = await store.readStream(streamId);
    const state = fold(decider, recorded.map(toDomainEvent<Event>));
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: undefined };
    const expected = recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1]!.revision;
    const appended = await store.append(
      streamId,
      events.map((event) => ({ type: event.type, data: event.data, metadata })),
      expected,
    );
    return { events, state: events.reduce(decider.evolve, state), position: appended.position };
  });
}

export function toDomainEvent<Event extends DomainEvent>(recorded: RecordedEvent): Event {
  return { type: recorded.type, data: recorded.data } as Event;
}
