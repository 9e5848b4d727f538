import { fold, toDomainEvent, type Decider, type DomainEvent } from './decider.ts';
import { WrongExpectedRevisionError, type EventStore } from '../event-store/event-store.ts';
import { lockStream } from './stream-lock.ts';
import { inTransaction, type Pool, type PoolClient } from '../db/pool.ts';
import { dropHeldMail, releaseHeldMail } from '../mail/outbox.ts';
import type { CommandMetadata, CommandOutcome } from './handle-command.ts';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency-retention.ts';

/**
 * Rows before events, with EventStoreDB (which cannot join a PostgreSQL transaction).
 * The writes of one command are, in order:
 *
 *   1. park: the rows that must survive a crash after the append (rowsBeforeEvents,
 *      an invite `held`) and a pending row naming the decided events, in a transaction
 *      of their own, committed;
 *   2. the append (expected revision, under the stream's lock held by the command's
 *      transaction);
 *   3. the command's transaction: releases the held mail, deletes the pending row,
 *      writes the idempotency answer; commit.
 *
 * A pending row left behind means a crash or a failed append between 1 and 3. Whoever
 * next holds the stream's lock (the next command, a retry, the pending-appends pass)
 * settles it before deciding (`settlePending`): the events are in the stream, so the
 * held mail is released; or they are not and never will be (their command lost the
 * lock with its transaction), so the command's `undo` removes its parked rows. The
 * held-invites consumer releases held mail of every onboarding.sent it sees on the log,
 * so an invite goes out without waiting for the next command either.
 */

export interface PendingAppend {
  commandId: string;
  streamId: string;
  eventIds: string[];
  events: DomainEvent[];
}

/** Undoes the parked rows of events that never landed; inside the settling transaction. */
export type UndoParked = (pending: PendingAppend, tx: PoolClient) => Promise<void>;

/** Step 1: the parked rows and the pending row, committed together. */
export async function park(
  pool: Pool,
  pending: PendingAppend,
  write: (tx: PoolClient) => Promise<void>,
): Promise<void> {
  await inTransaction(pool, async (tx) => {
    await tx.query(
      `insert into eventstoredb_pending_appends (command_id, stream_id, event_ids, events)
       values ($1, $2, $3::uuid[], $4::jsonb)`,
      [
        pending.commandId,
        pending.streamId,
        pending.eventIds,
        JSON.stringify(pending.events.map(({ type, data }) => ({ type, data }))),
      ],
    );
    await write(tx);
  });
}

/** Step 3 (and a settled pending row whose events landed): what was held acts now. */
export async function confirmAppended(tx: PoolClient, commandId: string, eventIds: string[]): Promise<void> {
  await releaseHeldMail(tx, eventIds);
  await tx.query('delete from eventstoredb_pending_appends where command_id = $1', [commandId]);
}

/**
 * Settles the pending rows of `streamId`; the caller holds the stream's lock in `tx`,
 * so no live command is between its park and its commit on this stream.
 */
export async function settlePending(
  store: EventStore,
  tx: PoolClient,
  streamId: string,
  undo: UndoParked | undefined,
): Promise<number> {
  const { rows } = await tx.query<{ command_id: string; event_ids: string[]; events: DomainEvent[] }>(
    `select command_id, event_ids, events from eventstoredb_pending_appends
     where stream_id = $1 order by created_at for update`,
    [streamId],
  );
  if (rows.length === 0) return 0;
  const inStream = new Set((await store.readStream(streamId)).map((event) => event.id));
  for (const row of rows) {
    if (row.event_ids.every((id) => inStream.has(id))) {
      await confirmAppended(tx, row.command_id, row.event_ids);
      continue;
    }
    await dropHeldMail(tx, row.event_ids);
    await undo?.({ commandId: row.command_id, streamId, eventIds: row.event_ids, events: row.events }, tx);
    await tx.query('delete from eventstoredb_pending_appends where command_id = $1', [row.command_id]);
  }
  return rows.length;
}

/**
 * Settles what a crashed or failed command left on `streamId`, in a transaction of its
 * own that takes the stream's lock, before the command's transaction takes it: undoing
 * parked rows inside the command's transaction would wait on the rows its own park
 * writes next, from another connection.
 */
export async function settleBeforeCommand(
  deps: { eventStore: EventStore; pool?: Pool },
  streamId: string,
  undo: UndoParked | undefined,
): Promise<void> {
  if (!deps.pool) throw new Error('Rows before events with EventStoreDB need the pool');
  const { rows } = await deps.pool.query(
    'select 1 from eventstoredb_pending_appends where stream_id = $1 limit 1',
    [streamId],
  );
  if (rows.length === 0) return;
  await inTransaction(deps.pool, async (tx) => {
    await lockStream(tx, streamId);
    await settlePending(deps.eventStore, tx, streamId, undo);
  });
}

/**
 * Under the stream's lock: a pending row left between the settling and the lock (another
 * command crashed in that moment) fails the attempt as a conflict; the next one settles it.
 */
export async function requireNothingPending(tx: PoolClient, streamId: string): Promise<void> {
  const { rows } = await tx.query('select 1 from eventstoredb_pending_appends where stream_id = $1 limit 1', [
    streamId,
  ]);
  if (rows.length > 0) throw new WrongExpectedRevisionError(streamId, 'any', 'no_stream');
}

/**
 * A crash after the append and before the command's commit leaves events whose command
 * never answered. A retry with the same Idempotency-Key finds them here by their
 * metadata and completes the command (the settled pending row released what was held;
 * it answers from the state right after them) instead of running it again.
 */
export async function earlierAttempt<State, Event extends DomainEvent>(
  store: EventStore,
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  streamId: string,
  metadata: CommandMetadata,
): Promise<(CommandOutcome<State, Event> & { commandId: string }) | undefined> {
  if (!metadata.idempotency_key) return undefined;
  const recorded = await store.readStream(streamId);
  // Past the window the key runs as a new command (./idempotency.ts).
  const since = Date.now() - IDEMPOTENCY_RETENTION_MS;
  const own = recorded.filter(
    (event) =>
      event.recordedAt.getTime() >= since &&
      event.metadata.idempotency_key === metadata.idempotency_key &&
      (event.metadata.api_key_id ?? null) === (metadata.api_key_id ?? null),
  );
  if (own.length === 0) return undefined;
  // One command's events: those of the latest attempt that got its append through.
  const commandId = String(own.at(-1)!.metadata.command_id);
  const mine = own.filter((event) => event.metadata.command_id === commandId);
  const first = recorded.indexOf(mine[0]!);
  const last = recorded.indexOf(mine.at(-1)!);
  const before = fold(decider, recorded.slice(0, first).map(toDomainEvent<Event>));
  const events = mine.map(toDomainEvent<Event>);
  return {
    before,
    state: fold(decider, recorded.slice(0, last + 1).map(toDomainEvent<Event>)),
    events,
    eventIds: mine.map((event) => event.id),
    position: recorded[last]!.position,
    commandId,
  };
}
