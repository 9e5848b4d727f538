import { openSealed } from '../../shared/privacy/personal-data-vault.ts';
import { storedValue } from '../../shared/privacy/sealed-columns.ts';
import { randomUUID } from 'node:crypto';
import { inCommandTransaction, type CommandMetadata } from '../../shared/commands/handle-command.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import { teamFacts } from '../../projections/teams/queries.ts';
import { readOnboarding, runOnboardingCommand } from './onboarding-unit-of-work.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { queueClientEmail } from './client-email.ts';
import { activeTokenHash } from './decider/index.ts';
import type { TimerKind } from './onboarding-timers.ts';
import { oldestFirst } from '../../shared/work-queue/claim-strategies.ts';
import { claimDue, complete, defineWorkQueue } from '../../shared/work-queue/work-queue.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { clearTokenFromInvites } from './client-link.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';

/** What firing the due onboarding timers uses. */
export type OnboardingTimersDeps = Pick<
  Platform,
  'clock' | 'logger' | 'projections' | 'pool' | 'eventStore' | 'settings' | 'vault'
>;

/**
 * Works the onboarding timers (table onboarding_timers, scheduled by the onboarding
 * commands) that are due by the service clock:
 *
 * - reminder: queues a reminder email (mail_outbox, kind reminder) to the client, unless
 *   the timer belongs to an earlier send or the onboarding is no longer sent or in
 *   progress (cancelled, completed, expired, archived, erased, link expired): then the
 *   timer is cancelled instead;
 * - overdue: MarkOverdue (onboarding.overdue, once per onboarding);
 * - link_expiry: ExpireOnboarding (onboarding_expired: the status becomes expired and the
 *   link stops working; a sent or in_progress onboarding only).
 *
 * Each timer runs in its own transaction together with its effects (the command's events
 * with the PostgreSQL event store, the email) and its status moving to fired (or
 * cancelled). Two passes that race (two processes, the loop and a drain) never fire a
 * timer twice: a pass claims its row with `for update skip locked` inside that
 * transaction (a work queue without a lease, shared/work-queue/work-queue.ts), and takes a
 * transaction advisory lock per onboarding without waiting (a timer of an onboarding
 * another pass is working on is left for later), so their timer updates never deadlock.
 * With EventStoreDB a crash between the append and the commit can fire a timer again;
 * the commands decide nothing the second time.
 */

interface ClaimedTimer {
  id: string;
  onboarding_id: string;
  team_id: string;
  kind: TimerKind;
  key: string;
  due_at: Date;
}

type Fired = { status: 'fired' | 'cancelled'; position?: bigint };

/**
 * The timers as a work queue without a lease or attempts: the claim holds the row in the
 * timer's transaction, and a failure rolls it back (the timer stays scheduled). $3: the
 * onboardings this pass leaves alone.
 */
const timers = defineWorkQueue({
  table: 'onboarding_timers',
  due: "$row.status = 'scheduled' and $row.due_at <= $1 and not ($row.onboarding_id = any($3::uuid[]))",
  lease: null,
  claim: oldestFirst('$row.due_at, $row.id'),
  returning: 'id, onboarding_id, team_id, kind, key, due_at',
  states: { done: { status: 'fired' } },
});

/** Most timers worked in one pass (the next pass goes on). */
const PASS_LIMIT = 500;

export const onboardingTimersPass: DuePass<OnboardingTimersDeps> = {
  name: 'onboarding-timers',
  runDue: (context: OnboardingTimersDeps, signal?: AbortSignal) => runDueTimers(context, PASS_LIMIT, signal),
};

/** Works every timer due by the service clock now; resolves to the number of timers fired or cancelled. */
export async function runDueTimers(
  context: OnboardingTimersDeps,
  limit = PASS_LIMIT,
  signal?: AbortSignal,
): Promise<number> {
  const dueBy = context.clock.now();
  const skipped = new Set<string>();
  let handled = 0;
  while (handled < limit && !signal?.aborted) {
    let result: Awaited<ReturnType<typeof workNextTimer>>;
    try {
      result = await workNextTimer(context, dueBy, [...skipped]);
    } catch (error) {
      const onboardingId = (error as { onboardingId?: string }).onboardingId;
      context.logger.error({ err: error, onboardingId }, 'an onboarding timer failed; it stays scheduled');
      if (!onboardingId) break;
      skipped.add(onboardingId);
      continue;
    }
    if (result === undefined) break;
    if (result.busy !== undefined) {
      skipped.add(result.busy);
      continue;
    }
    handled++;
    // The next timer's facts come from the read models: when they lag, this pass ends
    // (the lag is logged) and the next tick goes on from there.
    const caughtUp = await awaitReadModels(context, result.position).then(
      () => true,
      () => false,
    );
    if (!caughtUp) break;
  }
  return handled;
}

async function workNextTimer(context: OnboardingTimersDeps, dueBy: Date, skipped: string[]) {
  let claimed: ClaimedTimer | undefined;
  try {
    return await inCommandTransaction(context, async (tx) => {
      const [timer] = await claimDue<ClaimedTimer>(tx, timers, dueBy, 1, [skipped]);
      claimed = timer;
      if (!timer) return undefined;
      const locked = await tx.query<{ ok: boolean }>(
        'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as ok',
        [`onboarding-timers:${timer.onboarding_id}`],
      );
      if (!locked.rows[0]?.ok) return { busy: timer.onboarding_id, position: undefined };
      const now = context.clock.now();
      const outcome = await fire(context, tx, timer, now);
      // By id, whatever the command's timer sync did to the row meanwhile.
      await complete(tx, timers, timer.id, { columns: { status: outcome.status, updated_at: now } });
      return { busy: undefined, ...outcome };
    });
  } catch (error) {
    if (claimed && error instanceof Error) Object.assign(error, { onboardingId: claimed.onboarding_id });
    throw error;
  }
}

function metadataOf(timer: ClaimedTimer): CommandMetadata {
  return {
    command_id: randomUUID(),
    idempotency_key: null,
    api_key_id: null,
    causation_id: timer.id,
    correlation_id: timer.id,
    timer_kind: timer.kind,
    timer_key: timer.key,
  };
}

async function fire(
  context: OnboardingTimersDeps,
  tx: PoolClient,
  timer: ClaimedTimer,
  now: Date,
): Promise<Fired> {
  const deps = { pool: context.pool, eventStore: context.eventStore };
  switch (timer.kind) {
    case 'overdue': {
      const outcome = await runOnboardingCommand(
        deps,
        tx,
        timer.onboarding_id,
        () => ({ type: 'MarkOverdue', data: {}, metadata: { now } }),
        metadataOf(timer),
      );
      return { status: 'fired', position: outcome.position };
    }
    case 'link_expiry': {
      const outcome = await runOnboardingCommand(
        deps,
        tx,
        timer.onboarding_id,
        () => ({ type: 'ExpireOnboarding', data: {}, metadata: { now } }),
        metadataOf(timer),
      );
      return { status: 'fired', position: outcome.position };
    }
    case 'reminder':
      return (await queueReminder(context, tx, timer, now)) ? { status: 'fired' } : { status: 'cancelled' };
    default: {
      const unknown: never = timer.kind;
      throw new Error(`Unknown timer kind ${String(unknown)}`);
    }
  }
}

/** Queues the reminder email; false when the reminder no longer applies. */
async function queueReminder(context: OnboardingTimersDeps, tx: PoolClient, timer: ClaimedTimer, now: Date) {
  const { state } = await readOnboarding(context.eventStore, timer.onboarding_id);
  if (state.status !== 'sent' && state.status !== 'in_progress') return false;
  const sendNumber = Number(timer.key.split(':')[1]);
  const tokenHash = activeTokenHash(state, now);
  if (state.send_count !== sendNumber || tokenHash === null) return false;
  const client = await tx.query<{ name: string | null; email: string | null }>(
    'select name, email from clients where id = $1 and team_id = $2 and not client_is_erased(erased_at, email)',
    [state.client_id, state.team_id],
  );
  const [name, email] = client.rows[0]
    ? await openSealed(tx, [storedValue(client.rows[0].name), storedValue(client.rows[0].email)])
    : [null, null];
  const recipient = email ? { name: name ?? null, email } : undefined;
  const team = await teamFacts(tx, state.team_id);
  if (!recipient?.email || !team) return false;
  await queueClientEmail(tx, {
    kind: 'reminder',
    extra: { token: await clearTokenFromInvites(tx, context.vault, state.id, tokenHash) },
    publicUrl: context.settings.PUBLIC_URL,
    team,
    recipient: { name: recipient.name, email: recipient.email },
    onboarding: state,
    at: now,
  });
  return true;
}
