import { openedBody } from './webhook-body.ts';
import { queueMail } from '../../shared/mail/outbox.ts';
import { inTransaction } from '../../shared/db/pool.ts';
import { renderEmail, renderNotification } from './rendering.ts';
import { currentMember, teamWithOwner } from '../../projections/teams/queries.ts';
import { teamEmailVerified } from '../access/index.ts';
import { safePost } from '../../shared/net/safe-http.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { judge, outboundOptions, type OutboundDeps } from '../../shared/net/outbound.ts';
import type { FinishRun, QueuedRun } from './automation-queue.ts';
import {
  firmName,
  isValidEmail,
  onboardingFacts,
  placeholderValues,
  SERVICE_SENDER_NAME,
} from './run-facts.ts';

/** What an action run's sending uses. */
export type ActionDeps = Pick<Platform, 'clock' | 'pool' | 'vault'> & OutboundDeps;

/**
 * Send webhook: POST of the body built when the event occurred, with
 * `Content-Type: application/json`, `X-Service-Event-Id` and `Idempotency-Key` (both the
 * body's id); no signature header. The same id and body on every retry.
 */
export async function sendWebhook(context: ActionDeps, run: QueuedRun, finish: FinishRun): Promise<void> {
  if (run.action.type !== 'send_webhook' || run.request_body === null) {
    throw new Error(`run ${run.id} is not a webhook run with a body`);
  }
  const attemptAt = context.clock.now();
  const outcome = await safePost(
    {
      url: run.action.url,
      headers: {
        'Content-Type': 'application/json',
        'X-Service-Event-Id': run.id,
        'Idempotency-Key': run.id,
      },
      body: await openedBody(context.vault, run.request_body),
    },
    outboundOptions(context),
  );
  await inTransaction(context.pool, (tx) => finish(tx, judge(outcome, attemptAt)));
}

const NO_EMAIL = 'client has no valid email address';

/**
 * A self-serve team whose owner has not verified their email sends no automation mail: the
 * run stops as a paused team's create does ("sending paused"), without retry.
 */
const UNVERIFIED = {
  kind: 'stop',
  reason: 'sending paused (the owner has not verified their email)',
  status: null,
} as const;

/**
 * Send email: to the onboarding's client, from the firm name, plain text (line breaks kept,
 * HTML shown as typed), placeholders filled now. Queued in mail_outbox (kind automation)
 * in the transaction that records the run as succeeded; the mailer sends it. A client
 * without a valid email address (none, erased) stops the run without retry.
 */
export async function sendEmail(context: ActionDeps, run: QueuedRun, finish: FinishRun): Promise<void> {
  if (run.action.type !== 'send_email') throw new Error(`run ${run.id} is not a send_email run`);
  const { subject, body } = run.action;
  await inTransaction(context.pool, async (tx) => {
    const held = await heldMailRun(tx, run, finish);
    if (!held) return;
    const { team, facts } = held;
    const to = facts.client_email;
    if (!isValidEmail(to)) return finish(tx, { kind: 'stop', reason: NO_EMAIL, status: null });
    const from = firmName(team);
    const values = placeholderValues(facts, from, run.trigger, {
      date_format: facts.client_date_format ?? team.date_format,
      timezone: facts.client_timezone ?? team.timezone,
    });
    await queueMail(tx, {
      teamId: run.team_id,
      kind: 'automation',
      to,
      fromName: from,
      ...renderEmail({ subject, body }, values),
      onboardingId: run.onboarding_id,
      clientId: facts.client_id,
      at: context.clock.now(),
    });
    await finish(tx, { kind: 'succeeded', status: null });
  });
}

/**
 * Notify team member: emailed from the service itself (SERVICE_SENDER_NAME) to the member,
 * subject `[<team name>] Workflow notification`; placeholders filled now ({{team_name}} is
 * the team's name). A member who left the team since stops the run without retry.
 */
export async function notifyMember(context: ActionDeps, run: QueuedRun, finish: FinishRun): Promise<void> {
  if (run.action.type !== 'notify_member') throw new Error(`run ${run.id} is not a notify_member run`);
  const { member_id: memberId, message } = run.action;
  await inTransaction(context.pool, async (tx) => {
    const held = await heldMailRun(tx, run, finish);
    if (!held) return;
    const { team, facts } = held;
    const to = (await currentMember(tx, run.team_id, memberId))?.email;
    if (!to) return finish(tx, { kind: 'stop', reason: 'team member left the team', status: null });
    if (!isValidEmail(to))
      return finish(tx, { kind: 'stop', reason: 'team member has no valid email address', status: null });
    const values = placeholderValues(facts, team.name, run.trigger, team);
    await queueMail(tx, {
      teamId: run.team_id,
      kind: 'notification',
      to,
      fromName: SERVICE_SENDER_NAME,
      ...renderNotification(team.name, message, values),
      onboardingId: run.onboarding_id,
      clientId: facts.client_id,
      at: context.clock.now(),
    });
    await finish(tx, { kind: 'succeeded', status: null });
  });
}

/**
 * Locks the run's row for the rest of the transaction, before anything about the client is
 * read: an erasure of the client waits for the email this action queues, or this action
 * waits for the erasure (./client-erasure-runs.ts).
 */
async function holdRun(tx: Parameters<FinishRun>[0], runId: string): Promise<void> {
  await tx.query('select 1 from automation_runs where id = $1 for update', [runId]);
}

/**
 * The start of an emailing action: the run held (holdRun), its team and onboarding read.
 * Undefined when the run is finished instead: the onboarding is gone, or the team's email
 * is not verified.
 */
async function heldMailRun(tx: Parameters<FinishRun>[0], run: QueuedRun, finish: FinishRun) {
  await holdRun(tx, run.id);
  const team = await teamWithOwner(tx, run.team_id);
  const facts = await onboardingFacts(tx, run.team_id, run.onboarding_id);
  if (!team || !facts) {
    await finish(tx, { kind: 'stop', reason: 'onboarding not found', status: null });
    return undefined;
  }
  if (!(await teamEmailVerified(tx, run.team_id))) {
    await finish(tx, UNVERIFIED);
    return undefined;
  }
  return { team, facts };
}
