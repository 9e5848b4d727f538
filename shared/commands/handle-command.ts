import { randomUUID } from 'node:crypto';
import { inTransaction, type Pool, type PoolClient } from '../db/pool.ts';
import { toDomainEvent, type Decider, type DomainEvent } from './decider.ts';
import type { EventMetadata, EventStore, ExpectedRevision } from '../event-store/event-store.ts';
import { retryOnConflict } from './conflict-retry.ts';
import { lockStream } from './stream-lock.ts';
import { takesSnapshot } from './stream-snapshots.ts';
import {
  confirmAppended,
  earlierAttempt,
  park,
  requireNothingPending,
  settleBeforeCommand,
  type UndoParked,
} from './events-first.ts';

/** Recorded events become decider events (./decider.ts); routes and passes read them here too. */
export { toDomainEvent };

/**
 * The command pipeline: every command of every feature, from a route or a worker, runs
 * here as one unit of work in one PostgreSQL transaction:
 *
 *   lock the stream (./stream-lock.ts), read it, fold, build the command (it may read
 *   facts through `tx`), decide, write the command's operational rows (`writeRows`),
 *   append the events with the expected revision (EventStore.appendWithin), commit, tell
 *   the log's followers (EventStore.afterCommit).
 *
 * With the PostgreSQL event store the append joins the transaction, so events and
 * operational rows commit together or not at all. With EventStoreDB the append is the
 * last step before the commit; the rows a crash after it must not lose (rowsBeforeEvents)
 * commit before it, and whoever next holds the stream's lock settles what a crash left
 * (./events-first.ts). Commands on one
 * stream queue for its lock, so they neither read the same revision nor deadlock on
 * their operational rows. A concurrent append that still passes the expected revision,
 * a stream lock not had within its wait, or a deadlock fails the attempt: the whole
 * transaction is rolled back and run again after a jittered wait, within the time budget
 * of ./conflict-retry.ts. The wait happens after the rollback, so a waiting command
 * holds no connection. Idempotency (./idempotency.ts) and read-your-writes
 * (./read-your-writes.ts) wrap the same transaction and its position.
 */

/** Metadata every event carries: who caused it and under which command, for the audit feed and idempotency. */
export interface CommandMetadata extends EventMetadata {
  command_id: string;
  request_id?: string;
  idempotency_key?: string | null;
  api_key_id?: string | null;
  causation_id?: string | null;
  correlation_id?: string | null;
}

export interface PipelineDeps {
  pool: Pool;
  eventStore: EventStore;
}

export interface Decided<State, Event> {
  /** The state before the command. */
  before: State;
  /** The state after it (equal to `before` when nothing was decided). */
  state: State;
  events: Event[];
  /** Event ids, in the order of `events`. */
  eventIds: string[];
}

export interface CommandOutcome<State, Event> extends Decided<State, Event> {
  /** Global position of the last appended event; undefined when nothing was appended. */
  position: bigint | undefined;
}

export interface StreamCommand<State, Command, Event extends DomainEvent> {
  streamId: string;
  decider: Decider<State, Command, Event>;
  /** The command, or how to build it from the folded state (reads of facts through `tx`). */
  command: Command | ((state: State, tx: PoolClient) => Command | Promise<Command>);
  metadata: CommandMetadata;
  /** The command's operational rows, written after the decision and before the append. */
  writeRows?: (decided: Decided<State, Event>, tx: PoolClient, command: Command) => Promise<void>;
  /**
   * Rows that must survive a crash after the append (./events-first.ts). With the
   * PostgreSQL store they join `tx` like writeRows (`held` false). With EventStoreDB they
   * commit in a transaction of their own before the append (`held` true): what must not
   * act before the events exist (an invite) is written held, and is released after the
   * append, by a retry, or by the consumer that follows the log.
   */
  rowsBeforeEvents?: (
    decided: Decided<State, Event>,
    tx: PoolClient,
    held: boolean,
    command: Command,
  ) => Promise<void>;
  /** Undoes rowsBeforeEvents of events that never landed (./events-first.ts). */
  undoParked?: UndoParked;
}

/**
 * Runs `work` in one transaction, on `connection` when given (a caller holding a session
 * lock over several transactions) or on a connection of the pool; a concurrency conflict
 * runs it again (./conflict-retry.ts).
 */
export async function inCommandTransaction<T>(
  deps: PipelineDeps & { connection?: PoolClient },
  work: (tx: PoolClient) => Promise<T>,
): Promise<T> {
  return retryOnConflict(async () => {
    const result = deps.connection
      ? await transactionOn(deps.connection, work)
      : await inTransaction(deps.pool, work);
    deps.eventStore.afterCommit();
    return result;
  });
}

/** One command inside the caller's transaction `tx` (see above); a DomainError propagates unchanged. */
export async function decideWithin<State, Command, Event extends DomainEvent>(
  deps: { eventStore: EventStore; pool?: Pool },
  tx: PoolClient,
  spec: StreamCommand<State, Command, Event>,
): Promise<CommandOutcome<State, Event>> {
  const { streamId, decider } = spec;
  const eventsFirst = deps.eventStore.kind === 'eventstoredb' && spec.rowsBeforeEvents !== undefined;
  if (eventsFirst) await settleBeforeCommand(deps, streamId, spec.undoParked);
  await lockStream(tx, streamId);
  if (eventsFirst) {
    await requireNothingPending(tx, streamId);
    const done = await earlierAttempt(deps.eventStore, decider, streamId, spec.metadata);
    if (done) {
      // The retry completes the earlier command, so it answers under that command's id.
      spec.metadata.command_id = done.commandId;
      return done;
    }
  }
  const { state: before, expected, replayed } = await readStreamState(deps.eventStore, decider, streamId, tx);
  const command =
    typeof spec.command === 'function'
      ? await (spec.command as (state: State, tx: PoolClient) => Command | Promise<Command>)(before, tx)
      : spec.command;
  const events = decider.decide(command, before);
  if (events.length === 0) return { before, state: before, events, eventIds: [], position: undefined };
  const state = events.reduce(decider.evolve, before);
  const eventIds = events.map(() => randomUUID());
  const decided = { before, state, events, eventIds };
  await spec.writeRows?.(decided, tx, command);
  if (eventsFirst) {
    if (!deps.pool) throw new Error('Rows before events with EventStoreDB need the pool');
    const pending = { commandId: spec.metadata.command_id, streamId, eventIds, events };
    await park(deps.pool, pending, (own) => spec.rowsBeforeEvents!(decided, own, true, command));
  } else {
    await spec.rowsBeforeEvents?.(decided, tx, false, command);
  }
  const appended = await deps.eventStore.appendWithin(
    tx,
    streamId,
    events.map((event, index) => ({
      id: eventIds[index],
      type: event.type,
      data: event.data,
      metadata: spec.metadata,
    })),
    expected,
  );
  if (eventsFirst) await confirmAppended(tx, spec.metadata.command_id, eventIds);
  if (decider.snapshot && takesSnapshot(replayed, events.length)) {
    await deps.eventStore.saveSnapshot(tx, streamId, decider.snapshot.version, {
      revision: appended.nextExpectedRevision,
      state,
    });
  }
  return { ...decided, position: appended.position };
}

/** One command in a transaction of its own: the pipeline end to end. */
export function handleCommand<State, Command, Event extends DomainEvent>(
  deps: PipelineDeps,
  spec: StreamCommand<State, Command, Event>,
): Promise<CommandOutcome<State, Event>> {
  return inCommandTransaction(deps, (tx) => decideWithin(deps, tx, spec));
}

/**
 * The folded state of a stream and the expected revision of its next append, through `tx`
 * when given: from the stream's snapshot and the events after it when the decider keeps
 * snapshots (./stream-snapshots.ts), else from every event. `replayed`: events folded.
 */
export async function readStreamState<State, Event extends DomainEvent>(
  store: EventStore,
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve' | 'snapshot'>,
  streamId: string,
  tx?: PoolClient,
): Promise<{ state: State; expected: ExpectedRevision; replayed: number }> {
  const { snapshot, events: recorded } = decider.snapshot
    ? await store.readSinceSnapshot(streamId, decider.snapshot.version, tx)
    : {
        snapshot: undefined,
        events: tx ? await store.readStreamWithin(tx, streamId) : await store.readStream(streamId),
      };
  const start = snapshot ? (snapshot.state as State) : decider.initialState();
  const state = recorded.map(toDomainEvent<Event>).reduce(decider.evolve, start);
  const last = recorded.at(-1)?.revision ?? snapshot?.revision;
  const expected: ExpectedRevision = last === undefined ? 'no_stream' : last;
  return { state, expected, replayed: recorded.length };
}

async function transactionOn<T>(connection: PoolClient, work: (tx: PoolClient) => Promise<T>): Promise<T> {
  await connection.query('begin');
  try {
    const result = await work(connection);
    await connection.query('commit');
    return result;
  } catch (error) {
    await connection.query('rollback').catch(() => undefined);
    throw error;
  }
}
