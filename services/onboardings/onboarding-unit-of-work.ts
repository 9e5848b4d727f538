import { randomUUID } from 'node:crypto';
import { onboardingDecider, type OnboardingCommand, type OnboardingState } from './decider/index.ts';
import { onboardingStreamId, type OnboardingEvent } from './onboarding-events.ts';
import { desiredTimers } from './onboarding-timers.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import type { EventStore } from '../../shared/event-store/event-store.ts';
import type { PendingAppend } from '../../shared/commands/events-first.ts';
import {
  decideWithin,
  readStreamState,
  type CommandMetadata,
  type CommandOutcome,
  type Decided,
  type PipelineDeps,
} from '../../shared/commands/handle-command.ts';

/**
 * An onboarding command in the command pipeline (shared/commands/handle-command.ts), with the
 * onboarding's operational rows: monthly usage and recipients of a send, and the timers
 * that follow from the new state, plus what the caller adds (the invite in the outbox,
 * the idempotency record), all in the command's transaction. With EventStoreDB the
 * operational rows and the invite commit before the append instead, the invite held
 * until its event exists (shared/commands/events-first.ts).
 */

export type OnboardingDeps = PipelineDeps;

export type OnboardingOutcome = CommandOutcome<OnboardingState, OnboardingEvent>;

export interface RunOptions {
  /** Extra writes of the caller inside the transaction, after the decision, before the append. */
  beforeAppend?: (outcome: Decided<OnboardingState, OnboardingEvent>, tx: PoolClient) => Promise<void>;
  /**
   * Side effects written with the operational rows (the send's invite): in the transaction
   * with the PostgreSQL store, committed before the append and `held` with EventStoreDB
   * (shared/commands/events-first.ts).
   */
  effects?: (
    outcome: Decided<OnboardingState, OnboardingEvent>,
    tx: PoolClient,
    held: boolean,
  ) => Promise<void>;
}

/** With `tx` the stream is read through the command's own transaction. */
export function readOnboarding(store: EventStore, onboardingId: string, tx?: PoolClient) {
  return readStreamState(store, onboardingDecider, onboardingStreamId(onboardingId), tx);
}

/**
 * Decides one command on the onboarding's stream inside `tx`. `build` gets the folded
 * state and returns the command (it may read facts through `tx`). A DomainError of the
 * decider propagates unchanged; nothing is written then.
 */
export function runOnboardingCommand(
  deps: OnboardingDeps,
  tx: PoolClient,
  onboardingId: string,
  build: (state: OnboardingState) => OnboardingCommand | Promise<OnboardingCommand>,
  metadata: CommandMetadata,
  options: RunOptions = {},
): Promise<OnboardingOutcome> {
  return decideWithin(deps, tx, {
    streamId: onboardingStreamId(onboardingId),
    decider: onboardingDecider,
    command: build,
    metadata,
    async writeRows(decided, tx) {
      await options.beforeAppend?.(decided, tx);
    },
    async rowsBeforeEvents(decided, tx, held, command) {
      await writeOperationalRows(tx, decided, command.metadata.now);
      await options.effects?.(decided, tx, held);
    },
    undoParked: (pending, tx) => undoParkedRows(deps.eventStore, onboardingId, pending, tx),
  });
}

/**
 * The operational rows of events that never landed (EventStoreDB, shared/commands/
 * events-first.ts), undone under the stream's lock: the send's usage and recipient
 * rows it created (same time as its sent_at), and the timers worked out again from the
 * stream as it is.
 */
export async function undoParkedRows(
  store: EventStore,
  onboardingId: string,
  pending: PendingAppend,
  tx: PoolClient,
): Promise<void> {
  for (const event of pending.events as OnboardingEvent[]) {
    if (event.type === 'onboarding_reopened') {
      await tx.query('delete from onboarding_send_usage where onboarding_id = $1 and send_number = $2', [
        event.data.onboarding_id,
        event.data.send_number,
      ]);
      continue;
    }
    if (event.type !== 'onboarding.sent') continue;
    const { data } = event;
    if (data.counted) {
      await tx.query('delete from onboarding_send_usage where onboarding_id = $1 and send_number = $2', [
        data.onboarding_id,
        data.send_number,
      ]);
    }
    if (data.new_recipient) {
      await tx.query(
        `delete from onboarding_recipients
         where team_id = $1 and client_id = $2 and first_invited_at = $3::timestamptz`,
        [data.team_id, data.client_id, data.sent_at],
      );
    }
  }
  const { state } = await readOnboarding(store, onboardingId, tx);
  if (state.status !== 'absent') {
    await syncTimers(tx, state, new Date());
    return;
  }
  await tx.query(
    `update onboarding_timers set status = 'cancelled', updated_at = now()
     where onboarding_id = $1 and status = 'scheduled'`,
    [onboardingId],
  );
}

/** Monthly usage and recipients of a send; timers that follow from the new state. */
async function writeOperationalRows(
  tx: PoolClient,
  { before, state, events }: Decided<OnboardingState, OnboardingEvent>,
  now: Date,
): Promise<void> {
  for (const event of events) {
    if (event.type === 'onboarding_reopened') {
      // A reopen counts once more: one usage row per count (infra/migrations/101).
      const { data } = event;
      await recordSendCounts(tx, { ...data, counted: true, at: data.reopened_at });
    } else if (event.type === 'onboarding.sent') {
      const { data } = event;
      await recordSendCounts(tx, { ...data, at: data.sent_at });
    }
  }
  // Scheduled timers are always the previous state's desired ones: when neither state wants
  // any (a create, a draft's changes), there is nothing to cancel or schedule.
  if (state.status === 'absent') return;
  if (desiredTimers(before).length === 0 && desiredTimers(state).length === 0) return;
  await syncTimers(tx, state, now);
}

/** The usage row of a counted send and the team's new recipient, in one statement. */
async function recordSendCounts(
  tx: PoolClient,
  send: {
    onboarding_id: string;
    team_id: string;
    client_id: string;
    usage_month: string | null;
    send_number: number;
    at: string;
    counted: boolean;
    new_recipient: boolean;
  },
): Promise<void> {
  if (!send.counted && !send.new_recipient) return;
  await tx.query({
    name: 'onboarding_record_send_counts',
    text: `with usage as (
             insert into onboarding_send_usage (onboarding_id, team_id, usage_month, counted_at, send_number)
             select $1, $2, $3, $4, $5 where $6
             on conflict (onboarding_id, send_number) do nothing
           )
           insert into onboarding_recipients (team_id, client_id, first_invited_at)
           select $2, $7, $4 where $8
           on conflict (team_id, client_id) do nothing`,
    values: [
      send.onboarding_id,
      send.team_id,
      send.usage_month,
      send.at,
      send.send_number,
      send.counted,
      send.client_id,
      send.new_recipient,
    ],
  });
}

/** Schedules the timers the state wants and cancels scheduled ones it no longer wants. */
async function syncTimers(tx: PoolClient, state: Exclude<OnboardingState, { status: 'absent' }>, now: Date) {
  const timers = desiredTimers(state);
  // One statement: the cancelled keys (not wanted) and the scheduled ones (wanted) are
  // different rows, so the two changes never touch the same row.
  await tx.query({
    name: 'onboarding_sync_timers',
    text: `with cancelled as (
             update onboarding_timers set status = 'cancelled', updated_at = $3
             where onboarding_id = $1 and status = 'scheduled' and not (key = any($6::text[]))
           )
           insert into onboarding_timers (id, onboarding_id, team_id, kind, key, due_at, status, created_at, updated_at)
           select t.id, $1, $2, t.kind, t.key, t.due_at, 'scheduled', $3, $3
           from unnest($4::uuid[], $5::text[], $6::text[], $7::timestamptz[]) as t(id, kind, key, due_at)
           -- A reminder already sent at this time (also under an older key) is not sent again.
           where not (t.kind = 'reminder' and exists (
             select 1 from onboarding_timers fired
             where fired.onboarding_id = $1 and fired.kind = 'reminder' and fired.status = 'fired'
               and fired.due_at = t.due_at))
           on conflict (onboarding_id, key) do update
             set status = 'scheduled', updated_at = excluded.updated_at
             where onboarding_timers.status = 'cancelled'`,
    values: [
      state.id,
      state.team_id,
      now,
      timers.map(() => randomUUID()),
      timers.map((timer) => timer.kind),
      timers.map((timer) => timer.key),
      timers.map((timer) => timer.due_at),
    ],
  });
}
