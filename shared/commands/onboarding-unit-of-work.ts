import { randomUUID } from 'node:crypto';
import { fold } from '../domain/decider.ts';
import {
  onboardingDecider,
  type OnboardingCommand,
  type OnboardingState,
} from '../domain/onboarding/onboarding-decider.ts';
import { onboardingStreamId, type OnboardingEvent } from '../domain/onboarding/onboarding-events.ts';
import { desiredTimers } from '../domain/onboarding/onboarding-timers.ts';
import { inTransaction, type Pool, type PoolClient } from '../db/pool.ts';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
} from '../event-store/event-store.ts';
import { PostgresEventStore } from '../event-store/postgres-event-store.ts';
import { retryOnConflict } from './conflict-retry.ts';
import type { CommandMetadata } from './handle-command.ts';
import { toDomainEvent } from './handle-command.ts';
import { lockStream } from './stream-lock.ts';

/**
 * One onboarding command as a unit of work in one PostgreSQL transaction:
 *
 *   lock the stream (./stream-lock.ts), read it, fold, build the command (reads of facts through `tx`), decide,
 *   write the command's operational rows (monthly usage, recipients, timers, and what the
 *   caller adds: the invite in the outbox, the idempotency record), append the events with
 *   the expected revision, commit.
 *
 * With the PostgreSQL event store the append runs inside the same transaction, so events
 * and operational rows commit together or not at all: no invite is lost or queued twice,
 * no send is counted twice. With EventStoreDB the append is the last step before the
 * commit (README: the window between the two). Commands on one onboarding queue for its
 * stream lock, so they neither read the same revision nor deadlock on their operational
 * rows. A concurrent append that still passes the expected revision (one from outside a
 * unit of work), a stream lock not had within its wait, or a deadlock fails the command: the whole transaction is rolled back and run again
 * (`inCommandTransaction`) after a jittered wait, within the time budget of
 * ./conflict-retry.ts. The wait happens after the rollback, so a waiting command holds
 * no connection.
 */

export interface OnboardingDeps {
  pool: Pool;
  eventStore: EventStore;
}

export interface OnboardingOutcome {
  /** The state before the command. */
  before: OnboardingState;
  /** The state after it (equal to `before` when nothing was decided). */
  state: OnboardingState;
  events: OnboardingEvent[];
  /** Event ids, in the order of `events`. */
  eventIds: string[];
  /** Global position of the last appended event; undefined when nothing was appended. */
  position: bigint | undefined;
}

export interface RunOptions {
  /** Extra writes of the caller inside the transaction, after the decision, before the append. */
  beforeAppend?: (outcome: Omit<OnboardingOutcome, 'position'>, tx: PoolClient) => Promise<void>;
}

/** Runs `work` in a transaction; a concurrency conflict on an append runs it again (./conflict-retry.ts). */
export async function inCommandTransaction<T>(
  deps: Pool | OnboardingDeps,
  work: (tx: PoolClient) => Promise<T>,
): Promise<T> {
  const { pool, store } = 'eventStore' in deps ? { pool: deps.pool, store: deps.eventStore } : { pool: deps };
  return retryOnConflict(async () => {
    const result = await inTransaction(pool, work);
    // Appends inside the transaction did not NOTIFY at commit (a cluster-wide lock that
    // would serialise every command's commit): tell the followers now.
    if (store instanceof PostgresEventStore) store.announceAppend();
    return result;
  });
}

/** With `tx` (PostgreSQL store) the stream is read through the command's own connection. */
export async function readOnboarding(store: EventStore, onboardingId: string, tx?: PoolClient) {
  const streamId = onboardingStreamId(onboardingId);
  const recorded =
    tx && store instanceof PostgresEventStore
      ? await store.readStreamWith(tx, streamId)
      : await store.readStream(streamId);
  const state = fold(onboardingDecider, recorded.map(toDomainEvent<OnboardingEvent>));
  const expected: ExpectedRevision = recorded.length === 0 ? 'no_stream' : recorded.at(-1)!.revision;
  return { state, expected };
}

/**
 * Decides one command on the onboarding's stream inside `tx` (see above). `build` gets the
 * folded state and returns the command (it may read facts through `tx`). A DomainError of
 * the decider propagates unchanged; nothing is written then.
 */
export async function runOnboardingCommand(
  deps: OnboardingDeps,
  tx: PoolClient,
  onboardingId: string,
  build: (state: OnboardingState) => OnboardingCommand | Promise<OnboardingCommand>,
  metadata: CommandMetadata,
  options: RunOptions = {},
): Promise<OnboardingOutcome> {
  await lockStream(tx, onboardingStreamId(onboardingId));
  const { state: before, expected } = await readOnboarding(deps.eventStore, onboardingId, tx);
  const command = await build(before);
  const events = onboardingDecider.decide(command, before);
  if (events.length === 0) {
    return { before, state: before, events, eventIds: [], position: undefined };
  }
  const state = events.reduce(onboardingDecider.evolve, before);
  const eventIds = events.map(() => randomUUID());
  const decided = { before, state, events, eventIds };
  await writeOperationalRows(tx, decided, command.metadata.now);
  await options.beforeAppend?.(decided, tx);
  const appended = await appendInTransaction(
    deps.eventStore,
    tx,
    onboardingStreamId(onboardingId),
    events.map((event, index) => ({ id: eventIds[index], type: event.type, data: event.data, metadata })),
    expected,
  );
  return { ...decided, position: appended.position };
}

/** With the PostgreSQL store the append joins the transaction; otherwise it goes through the port. */
export function appendInTransaction(
  store: EventStore,
  tx: PoolClient,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  if (store instanceof PostgresEventStore) {
    return store.appendWith(tx, streamId, events, expected, { notifyAtCommit: false });
  }
  return store.append(streamId, events, expected);
}

/** Monthly usage and recipients of a send; timers that follow from the new state. */
async function writeOperationalRows(
  tx: PoolClient,
  { state, events }: Omit<OnboardingOutcome, 'position'>,
  now: Date,
): Promise<void> {
  for (const event of events) {
    if (event.type !== 'onboarding.sent') continue;
    const { data } = event;
    if (data.counted) {
      await tx.query(
        `insert into onboarding_send_usage (onboarding_id, team_id, usage_month, counted_at)
         values ($1, $2, $3, $4) on conflict (onboarding_id) do nothing`,
        [data.onboarding_id, data.team_id, data.usage_month, data.sent_at],
      );
    }
    if (data.new_recipient) {
      await tx.query(
        `insert into onboarding_recipients (team_id, client_id, first_invited_at)
         values ($1, $2, $3) on conflict (team_id, client_id) do nothing`,
        [data.team_id, data.client_id, data.sent_at],
      );
    }
  }
  if (state.status !== 'absent') await syncTimers(tx, state, now);
}

/** Schedules the timers the state wants and cancels scheduled ones it no longer wants. */
async function syncTimers(tx: PoolClient, state: Exclude<OnboardingState, { status: 'absent' }>, now: Date) {
  const timers = desiredTimers(state);
  await tx.query(
    `update onboarding_timers set status = 'cancelled', updated_at = $3
     where onboarding_id = $1 and status = 'scheduled' and not (key = any($2::text[]))`,
    [state.id, timers.map((timer) => timer.key), now],
  );
  if (timers.length === 0) return;
  await tx.query(
    `insert into onboarding_timers (id, onboarding_id, team_id, kind, key, due_at, status, created_at, updated_at)
     select t.id, $1, $2, t.kind, t.key, t.due_at, 'scheduled', $3, $3
     from unnest($4::uuid[], $5::text[], $6::text[], $7::timestamptz[]) as t(id, kind, key, due_at)
     on conflict (onboarding_id, key) do update
       set status = 'scheduled', updated_at = excluded.updated_at
       where onboarding_timers.status = 'cancelled'`,
    [
      state.id,
      state.team_id,
      now,
      timers.map(() => randomUUID()),
      timers.map((timer) => timer.kind),
      timers.map((timer) => timer.key),
      timers.map((timer) => timer.due_at),
    ],
  );
}
