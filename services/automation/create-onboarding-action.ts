import { randomUUID } from 'node:crypto';
import { inCommandTransaction, type CommandMetadata } from '../../shared/commands/handle-command.ts';
import { createOnboarding, sendOnboarding, type CommandDeps } from '../onboardings/index.ts';
import { teamFacts } from '../../projections/teams/queries.ts';
import { clientFacts, sendFacts, templateFacts } from '../onboardings/index.ts';
import { readOnboarding } from '../onboardings/index.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { DomainError } from '../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingState } from '../onboardings/index.ts';
import type { Platform } from '../../shared/app-deps.ts';
import type { AttemptVerdict } from '../../shared/net/outbound.ts';
import type { FinishRun, QueuedRun } from './automation-queue.ts';

/** What a Create onboarding action uses. */
export type CreateOnboardingActionDeps = Pick<
  Platform,
  'pool' | 'eventStore' | 'settings' | 'clock' | 'logger'
>;

/**
 * Create new onboarding: an onboarding from the rule's template for the trigger's client,
 * with no due date and no assignee, then sent exactly like a manual send (the same
 * commands as POST /api/v1/onboardings and /send: invite email, default reminders, counted
 * against the monthly limit, creation and send in the history, onboarding.sent to hooks).
 *
 * If the send cannot go ahead, nothing is created or counted and the run stops without
 * retry, with the reason in the latest-run line (CREATE_FAILURES). To know that before
 * creating anything, the whole create-and-send is decided in memory first (the same pure
 * decider, with the send facts read now) while the team's sends are held: a session
 * advisory lock on the key lockTeamSends uses, kept over both transactions (create, then
 * send), so no other send of the team can take the last monthly slot in between.
 * The run remembers the onboarding it created (created_onboarding_id, in the create's
 * transaction): after a crash between the two, the retry sends it instead of creating
 * another one. The send and the run's success commit together.
 */
export const CREATE_FAILURES: Readonly<Record<string, string>> = {
  limit_reached: 'monthly onboardings used up',
  template_missing: 'template deleted',
  invalid_payment: 'required payment cannot be collected',
  payment_plan_required: 'required payment cannot be collected',
  payment_not_connected: 'required payment cannot be collected',
  sending_paused: 'sending paused',
  recipient_cap_reached: 'daily new-recipient limit reached',
  agreement_text_required: 'signature field with sample agreement text',
  gallery_template_copy_required: 'gallery template with sample agreement text',
  client_erasure_pending: 'client erased',
  client_scope_missing: 'client not found',
};

const stop = (code: string): AttemptVerdict => ({
  kind: 'stop',
  reason: CREATE_FAILURES[code] ?? 'onboarding could not be sent',
  status: null,
});

/** The key of lockTeamSends (services/onboardings/onboarding-facts.ts), held at session level here. */
const sendLockKey = (teamId: string) => `onboarding-send:${teamId}`;

export async function createOnboardingAction(
  context: CreateOnboardingActionDeps,
  run: QueuedRun,
  finish: FinishRun,
): Promise<void> {
  if (run.action.type !== 'create_onboarding')
    throw new Error(`run ${run.id} is not a create_onboarding run`);
  const templateId = run.action.template_id;
  const deps: CommandDeps = {
    pool: context.pool,
    eventStore: context.eventStore,
    publicUrl: context.settings.PUBLIC_URL,
  };
  const metadata = (): CommandMetadata => ({
    command_id: randomUUID(),
    idempotency_key: null,
    api_key_id: null,
    causation_id: run.event_id,
    correlation_id: run.id,
    automation_rule_id: run.rule_id,
    automation_run_id: run.id,
  });
  await withTeamSendLock(context, run.team_id, async (connection) => {
    // Every transaction runs on the connection that holds the lock.
    const transaction = <T>(work: (tx: PoolClient) => Promise<T>) =>
      inCommandTransaction({ ...deps, connection }, work);
    let onboardingId = run.created_onboarding_id;
    if (onboardingId === null) {
      let created: string | null;
      try {
        created = await transaction(async (tx) => {
          const now = context.clock.now();
          const trigger = await tx.query<{ client_id: string }>(
            'select client_id from onboardings where id = $1 and team_id = $2',
            [run.onboarding_id, run.team_id],
          );
          const clientId = trigger.rows[0]?.client_id;
          if (!clientId) {
            await finish(tx, stop('client_scope_missing'));
            return null;
          }
          const refusal = await refusalOf(tx, run.team_id, templateId, clientId, now);
          if (refusal !== null) {
            await finish(tx, stop(refusal));
            return null;
          }
          const outcome = await createOnboarding(
            deps,
            tx,
            { team_id: run.team_id, template_id: templateId, client_id: clientId },
            now,
            metadata(),
          );
          await tx.query('update automation_runs set created_onboarding_id = $2 where id = $1', [
            run.id,
            outcome.onboardingId,
          ]);
          return outcome.onboardingId;
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        await transaction((tx) => finish(tx, stop(error.code)));
        return;
      }
      if (created === null) return;
      onboardingId = created;
    }
    const sentId = onboardingId;
    try {
      // A concurrent change of the draft (an operator edit) is a conflict: the pipeline decides again.
      await transaction(async (tx) => {
        const { state } = await readOnboarding(context.eventStore, sentId, tx);
        if (state.status === 'draft') {
          await sendOnboarding(
            deps,
            tx,
            { team_id: run.team_id, onboarding_id: sentId, force: false },
            context.clock.now(),
            metadata(),
          );
        }
        await finish(tx, { kind: 'succeeded', status: null });
      });
    } catch (error) {
      // Only when the facts changed in between despite the lock (an operator edit): the draft stays.
      if (!(error instanceof DomainError)) throw error;
      context.logger.warn(
        { runId: run.id, code: error.code },
        'automation created a draft it could not send',
      );
      await transaction((tx) => finish(tx, stop(error.code)));
    }
  });
}

/**
 * Runs `work` on a connection of its own that holds the team's send lock (session level)
 * over several transactions. A connection that failed is destroyed rather than returned
 * to the pool, so the lock can never outlive the work.
 */
async function withTeamSendLock(
  context: CreateOnboardingActionDeps,
  teamId: string,
  work: (connection: PoolClient) => Promise<void>,
): Promise<void> {
  const connection = await context.pool.connect();
  try {
    await connection.query('select pg_advisory_lock(hashtextextended($1, 0))', [sendLockKey(teamId)]);
    try {
      await work(connection);
    } finally {
      await connection.query('select pg_advisory_unlock(hashtextextended($1, 0))', [sendLockKey(teamId)]);
    }
  } catch (error) {
    connection.release(true);
    throw error;
  }
  connection.release();
}

/** The first refusal the create-and-send would meet now (its error code), or null. */
async function refusalOf(
  tx: PoolClient,
  teamId: string,
  templateId: string,
  clientId: string,
  now: Date,
): Promise<string | null> {
  const team = await teamFacts(tx, teamId);
  if (!team) return 'client_scope_missing';
  const template = await templateFacts(tx, teamId, templateId);
  const client = await clientFacts(tx, teamId, clientId);
  try {
    const absent: OnboardingState = { status: 'absent' };
    const created = onboardingDecider.decide(
      {
        type: 'CreateOnboarding',
        data: {
          onboarding_id: randomUUID(),
          team_id: teamId,
          client_id: clientId,
          template_id: templateId,
          template: template ?? null,
          client: client.status,
          token_hash: 'decided-in-memory',
          due: null,
          expires_at: null,
        },
        metadata: { now },
      },
      absent,
    );
    const draft = created.reduce(onboardingDecider.evolve, absent);
    onboardingDecider.decide(
      {
        type: 'SendOnboarding',
        data: {
          team_id: teamId,
          token_hash: 'decided-in-memory',
          pin: null,
          force: false,
          facts: await sendFacts(tx, team, client, clientId, now),
        },
        metadata: { now },
      },
      draft,
    );
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}
