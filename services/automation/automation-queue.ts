import { inTransaction, type PoolClient } from '../../shared/db/pool.ts';
import type { AutomationAction } from './automation-rule-events.ts';
import { MAX_ATTEMPTS, nextAttemptAt } from './run-policy.ts';
import { hasAutomations, isPlan } from '../access/contract/plans.ts';
import { teamById } from '../../projections/teams/queries.ts';
import { fairByTeamAndEndpoint } from '../../shared/work-queue/claim-strategies.ts';
import { workInLanes } from '../../shared/work-queue/lanes.ts';
import {
  claimDue,
  complete,
  defineWorkQueue,
  endAttempt,
  nextStep,
  type NextStep,
  type RetryPolicy,
} from '../../shared/work-queue/work-queue.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { type AttemptVerdict } from '../../shared/net/outbound.ts';
import { oneAtATime } from '../../shared/work-queue/one-at-a-time.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { notifyMember, sendEmail, sendWebhook, type ActionDeps } from './actions.ts';
import { createOnboardingAction, type CreateOnboardingActionDeps } from './create-onboarding-action.ts';

/** What working the automation queue uses. */
export type AutomationQueueDeps = Pick<Platform, 'pool' | 'clock' | 'logger'> &
  ActionDeps &
  CreateOnboardingActionDeps;

/**
 * The automation queue (client-onboarding-api.md, Run rules; table automation_runs). Runs
 * are queued by the automation-rules consumer; `runDueAutomationActions` works the ones
 * due by the service clock: at every 5-minute pass (the scheduler loop looks every few
 * seconds; POST /admin/v1/work/drain runs it too). Each run:
 *
 * 1. the team's plan is checked again: without automations the run is skipped (state
 *    skipped), not retried, and the latest-run line stays as it was;
 * 2. the action runs from the copy taken when the event occurred;
 * 3. the verdict moves the run (queued -> succeeded | failed+retrying | failed+stopped;
 *    failed+retrying -> succeeded | failed+retrying | failed+stopped; at most 10 attempts,
 *    the wait roughly doubling: the retry policy is services/automation/run-policy.ts,
 *    applied by the work queue's nextStep, shared/work-queue/work-queue.ts) and writes the
 *    rule's latest-run line, in the same transaction as the action's own writes (the
 *    email queued, the onboarding sent).
 *
 * Runs are independent: they run side by side and one failure does not stop another; they
 * are claimed fairly, so one team's slow webhook endpoint delays only its own runs. A
 * worker holds a run with a lease (database clock) while it works on it; a run whose
 * worker died is taken again when the lease ends (at least once; a Send webhook repeats
 * the same id and body).
 */

export interface QueuedRun {
  id: string;
  rule_id: string;
  team_id: string;
  rule_name: string;
  trigger: string;
  event_id: string;
  onboarding_id: string;
  action: AutomationAction;
  request_body: string | null;
  attempts: number;
  created_onboarding_id: string | null;
}

/** Writes the verdict of the run's attempt (and the latest-run line) inside `tx`. */
export type FinishRun = (tx: PoolClient, verdict: AttemptVerdict) => Promise<void>;

/** Runs worked at once per process; Send webhook requests in flight per endpoint (a team's target host). */
export const AUTOMATION_LANES = 8;
export const WEBHOOK_ENDPOINT_LANES = 4;
const PASS_BUDGET_MS = 5_000;
const POLL_MS = 500;

/** Run rules 6 and 8 (services/automation/run-policy.ts). */
const runRetries: RetryPolicy = { maxAttempts: MAX_ATTEMPTS, nextAttemptAt };

/** The queue of action runs (shared/work-queue/work-queue.ts). */
const runs = defineWorkQueue({
  table: 'automation_runs',
  due: "$row.state in ('queued', 'failed') and $row.next_attempt_at <= $1",
  lease: '5 minutes',
  claim: fairByTeamAndEndpoint({
    endpoint: 'endpoint_host',
    queuedAt: 'queued_at',
    perEndpoint: WEBHOOK_ENDPOINT_LANES,
  }),
  returning: `id, rule_id, team_id, rule_name, trigger, event_id, onboarding_id, action, request_body,
              attempts, created_onboarding_id`,
  states: {
    done: { state: 'succeeded', failure: null },
    retrying: { state: 'failed', failure: 'retrying' },
    failed: { state: 'failed', failure: 'stopped' },
  },
  retries: runRetries,
});

/** The run's line in automation_rule_latest_runs. */
const OUTCOME: Record<NextStep['state'], string> = {
  done: 'succeeded',
  retrying: 'retrying',
  failed: 'stopped',
};

export interface AutomationPassOptions {
  /** Stops claiming (the runs in flight are finished and recorded). */
  signal?: AbortSignal;
  budgetMs?: number;
}

/**
 * Works the runs due (by `now`, or by the service clock at each claim), fairly across teams
 * and webhook endpoints, for at most a pass budget;
 * resolves to the number of runs worked (skipped included).
 */
export function runDueAutomationActions(
  context: AutomationQueueDeps,
  now?: Date,
  options: AutomationPassOptions = {},
): Promise<number> {
  return oneAtATime(context, 'automation-queue', () => {
    // Create new onboarding holds the team's send lock on a connection of its own: one at
    // a time, so waiting runs never take up the pool. The other actions run side by side.
    let creates: Promise<void> = Promise.resolve();
    const work = (run: QueuedRun): Promise<void> => {
      if (run.action.type !== 'create_onboarding') return workRun(context, run);
      creates = creates.catch(() => undefined).then(() => workRun(context, run));
      return creates;
    };
    return workInLanes<QueuedRun>({
      claim: (slots) => claimDue<QueuedRun>(context.pool, runs, now ?? context.clock.now(), slots),
      work,
      lanes: AUTOMATION_LANES,
      pollMs: POLL_MS,
      budgetMs: options.budgetMs ?? PASS_BUDGET_MS,
      signal: options.signal,
    });
  });
}

export const automationQueuePass: DuePass<AutomationQueueDeps> = {
  name: 'automation-queue',
  // A stop signal, when the caller passes one, ends the claiming between items.
  runDue: (context: AutomationQueueDeps, signal?: AbortSignal) =>
    runDueAutomationActions(context, undefined, { signal }),
};

async function workRun(context: AutomationQueueDeps, run: QueuedRun): Promise<void> {
  const attemptAt = context.clock.now();
  const finish: FinishRun = (tx, verdict) => finishRun(tx, run, verdict, attemptAt);
  try {
    const teamPlan = (await teamById(context.pool, run.team_id))?.plan;
    if (!teamPlan || !isPlan(teamPlan) || !hasAutomations(teamPlan)) {
      await skipRun(context, run, attemptAt);
      return;
    }
    switch (run.action.type) {
      case 'send_webhook':
        return await sendWebhook(context, run, finish);
      case 'send_email':
        return await sendEmail(context, run, finish);
      case 'notify_member':
        return await notifyMember(context, run, finish);
      case 'create_onboarding':
        return await createOnboardingAction(context, run, finish);
      default: {
        const unknown: never = run.action;
        await inTransaction(context.pool, (tx) =>
          finish(tx, { kind: 'stop', reason: `unknown action ${JSON.stringify(unknown)}`, status: null }),
        );
      }
    }
  } catch (error) {
    context.logger.error(
      { err: error, runId: run.id, ruleId: run.rule_id },
      'automation run failed; retrying',
    );
    await inTransaction(context.pool, (tx) =>
      finish(tx, { kind: 'retry', reason: 'internal error', status: null }),
    ).catch((recordError: unknown) =>
      context.logger.error({ err: recordError, runId: run.id }, 'could not record an automation run'),
    );
  }
}

async function skipRun(context: AutomationQueueDeps, run: QueuedRun, at: Date): Promise<void> {
  await complete(context.pool, runs, run.id, {
    columns: { state: 'skipped', finished_at: at, updated_at: at, request_body: null },
  });
}

async function finishRun(
  tx: PoolClient,
  run: QueuedRun,
  verdict: AttemptVerdict,
  attemptAt: Date,
): Promise<void> {
  const attempts = run.attempts + 1;
  const step = nextStep(runRetries, verdict, attempts, attemptAt);
  const reason = verdict.kind === 'succeeded' ? null : verdict.reason;
  const retrying = step.state === 'retrying';
  await endAttempt(tx, runs, run.id, step, {
    attempts,
    columns: {
      last_status_code: verdict.status,
      last_error: reason,
      updated_at: attemptAt,
      finished_at: retrying ? null : attemptAt,
      // The body holds the client's name and email: kept only while a retry may need it.
      ...(retrying ? {} : { request_body: null }),
    },
  });
  await tx.query(
    `insert into automation_rule_latest_runs (rule_id, team_id, run_id, outcome, reason, ran_at)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (rule_id) do update
       set run_id = excluded.run_id, outcome = excluded.outcome, reason = excluded.reason, ran_at = excluded.ran_at`,
    [run.rule_id, run.team_id, run.id, OUTCOME[step.state], reason, attemptAt],
  );
}
