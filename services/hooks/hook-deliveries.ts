import { inTransaction, type PoolClient } from '../../shared/db/pool.ts';
import { endpointsForEvent } from '../../projections/webhook-endpoints/queries.ts';
import { isPublicEventType } from '../events/contract/public-event-types.ts';
import { safePost } from '../../shared/net/safe-http.ts';
import type { EventConsumer } from '../../shared/subscriptions/event-consumer.ts';
import { fairByTeamAndEndpoint } from '../../shared/work-queue/claim-strategies.ts';
import { workInLanes } from '../../shared/work-queue/lanes.ts';
import {
  claimDue,
  defineWorkQueue,
  endAttempt,
  nextStep,
  type RetryPolicy,
} from '../../shared/work-queue/work-queue.ts';
import type { Platform } from '../../shared/app-deps.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { onboardingAt } from './event-moment.ts';
import { hookBody, webhookId } from './hook-payload.ts';
import { restEndpoint, wakeEndpoint } from './endpoint-rest.ts';
import { awaitReadModels, CONSUMER_READ_MODELS_WAIT_MS } from '../../shared/commands/read-your-writes.ts';
import { judge, outboundOptions, type AttemptVerdict, type OutboundDeps } from '../../shared/net/outbound.ts';
import { oneAtATime } from '../../shared/work-queue/one-at-a-time.ts';
import { DELIVERED_LOG_TYPES, webhookEventTypeOf } from './contract/webhook-event-types.ts';
import { signedHeaders, type SigningDeps } from './delivery-signature.ts';
import type { DeliveryTargetKind } from './delivery-log-decider.ts';

/**
 * Hook deliveries: every active subscription receives its own copy of every event of its
 * type, at least once; and so does every enabled signed webhook endpoint (one queue, one
 * pipeline: `target_kind` says which, `subscription_id` names the subscription or endpoint).
 * Every attempt is signed (./delivery-signature.ts).
 *
 * - The consumer `hook-deliveries` (subscription port: the log or a Kafka group) queues
 *   one delivery per (event, subscription that was active when the event occurred) in
 *   table hook_deliveries, in the transaction that marks the event handled: nothing is
 *   lost and nothing queued twice.
 * - `deliverDueHooks` (a due pass: the scheduler loop every few seconds, and
 *   POST /admin/v1/work/drain) sends the deliveries due by the service clock through
 *   shared/net/safe-http.ts and records each attempt in hook_delivery_attempts.
 * - Fairness: deliveries are claimed round-robin by team and endpoint (a team's target
 *   host) with at most HOOK_ENDPOINT_LANES in flight per endpoint, and worked in lanes
 *   that claim again as soon as one is free (shared/work-queue/: the claim strategy
 *   fairByTeamAndEndpoint and workInLanes); an
 *   endpoint that gives no answer rests between rounds of probes (./endpoint-rest.ts). One
 *   team's dead endpoint delays only its own deliveries.
 *
 * Retries (the Standard Webhooks schedule): after a failed attempt the next one waits 5
 * seconds, then 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours, 10 hours: 8 attempts
 * over about 27 hours. A Retry-After of at most 1 hour is honoured (never sooner). Any 2xx
 * is delivered; a 4xx other than 408 and 429 fails the delivery at once; everything else is
 * retried. The body and webhook-id are the same on every attempt.
 */

export const HOOK_RETRY_WAITS_SECONDS = [
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  10 * 3600,
] as const;
export const MAX_HOOK_ATTEMPTS = HOOK_RETRY_WAITS_SECONDS.length + 1;

/** What the consumer queuing deliveries uses. */
export type HookDeliveriesConsumerDeps = Pick<Platform, 'projections' | 'logger' | 'eventStore' | 'clock'>;

export function hookDeliveriesConsumer(context: HookDeliveriesConsumerDeps): EventConsumer {
  return {
    name: 'hook-deliveries',
    eventTypes: DELIVERED_LOG_TYPES,
    async handle(event, tx) {
      const teamId = (event.data as { team_id?: unknown } | null)?.team_id;
      const name = webhookEventTypeOf(event.type);
      if (typeof teamId !== 'string' || !name) return;
      await awaitReadModels(context, event.position, { timeoutMs: CONSUMER_READ_MODELS_WAIT_MS });
      const targets = await targetsOf(tx, teamId, name, String(event.position));
      if (targets.length === 0) return;
      const body = JSON.stringify(hookBody(event, await onboardingAt(context.eventStore, event), name));
      const now = context.clock.now();
      await tx.query(
        `insert into hook_deliveries
           (id, subscription_id, team_id, event_id, event_type, target_url, body, state,
            next_attempt_at, created_at, updated_at, target_kind)
         select d.id, d.subscription_id, $1, $2, $3, d.target_url, $4, 'pending', $5, $5, $5, d.kind
         from unnest($6::uuid[], $7::uuid[], $8::text[], $9::text[]) as d(id, subscription_id, target_url, kind)
         on conflict (subscription_id, event_id) do nothing`,
        [
          teamId,
          event.id,
          name,
          body,
          now,
          targets.map((target) => webhookId(event.id, target.id)),
          targets.map((target) => target.id),
          targets.map((target) => target.url),
          targets.map((target) => target.kind),
        ],
      );
    },
  };
}

/**
 * The targets of an event: the team's hook subscriptions to its (public) type and its
 * enabled webhook endpoints listing the type, both made before the event (by log
 * position) and not deleted since; endpoints only while the team's plan is not Free.
 */
async function targetsOf(
  tx: PoolClient,
  teamId: string,
  name: string,
  position: string,
): Promise<{ id: string; url: string; kind: DeliveryTargetKind }[]> {
  const hooks = isPublicEventType(name)
    ? (
        await tx.query<{ id: string; url: string }>(
          `select id, target_url as url from hook_subscriptions
           where team_id = $1 and event = $2 and active and position < $3
           order by position`,
          [teamId, name, position],
        )
      ).rows
    : [];
  const endpoints = await endpointsForEvent(tx, teamId, name, position);
  return [
    ...hooks.map((hook) => ({ ...hook, kind: 'hook' as const })),
    ...endpoints.map((endpoint) => ({ ...endpoint, kind: 'endpoint' as const })),
  ];
}

interface DueDelivery {
  id: string;
  team_id: string;
  subscription_id: string;
  target_kind: DeliveryTargetKind;
  round: number;
  target_host: string;
  target_url: string;
  body: string;
  attempts: number;
}

/** Requests in flight at once per process, and per endpoint (a team's target host) overall. */
export const HOOK_LANES = 16;
export const HOOK_ENDPOINT_LANES = 4;
/** A pass stops claiming after this long (then finishes its requests), so the other passes get their turn. */
export const HOOK_PASS_BUDGET_MS = 5_000;
/** While requests are in flight, how often a pass looks for deliveries that fell due meanwhile. */
export const HOOK_POLL_MS = 500;

const hookRetries: RetryPolicy = { maxAttempts: MAX_HOOK_ATTEMPTS, nextAttemptAt: nextHookAttemptAt };

/** The queue of deliveries (shared/work-queue/work-queue.ts). */
const deliveries = defineWorkQueue({
  table: 'hook_deliveries',
  due: "$row.state in ('pending', 'retrying') and $row.next_attempt_at <= $1",
  lease: '2 minutes',
  claim: fairByTeamAndEndpoint({
    endpoint: 'target_host',
    queuedAt: 'created_at',
    perEndpoint: HOOK_ENDPOINT_LANES,
    claimable: `not exists (
      select 1 from hook_endpoint_backoffs b
      where b.team_id = $row.team_id and b.target_host = $row.target_host and b.resting_until > $1)`,
  }),
  returning: 'id, team_id, subscription_id, target_kind, round, target_host, target_url, body, attempts',
  states: { done: { state: 'delivered' }, retrying: { state: 'retrying' }, failed: { state: 'failed' } },
  retries: hookRetries,
});

export interface DeliveryPassOptions {
  /** Stops claiming (the requests in flight are finished and recorded). */
  signal?: AbortSignal;
  budgetMs?: number;
}

/** What sending the deliveries due uses. */
export type HookDeliveryPassDeps = Pick<Platform, 'pool' | 'clock' | 'logger'> & OutboundDeps & SigningDeps;

/**
 * Sends the deliveries due (by `now`, or by the service clock at each claim, so one that
 * falls due during the pass is taken too), fairly across teams and endpoints, for at most
 * a pass budget; resolves to the number of attempts made.
 */
export function deliverDueHooks(
  context: HookDeliveryPassDeps,
  now?: Date,
  options: DeliveryPassOptions = {},
): Promise<number> {
  return oneAtATime(context, 'hook-deliveries', () =>
    workInLanes<DueDelivery>({
      claim: (slots) => claimDue<DueDelivery>(context.pool, deliveries, now ?? context.clock.now(), slots),
      work: (delivery) => attempt(context, delivery),
      lanes: HOOK_LANES,
      pollMs: HOOK_POLL_MS,
      budgetMs: options.budgetMs ?? HOOK_PASS_BUDGET_MS,
      signal: options.signal,
    }),
  );
}

export const hookDeliveriesPass: DuePass<HookDeliveryPassDeps> = {
  name: 'hook-deliveries',
  // A stop signal, when the caller passes one, ends the claiming between items.
  runDue: (context: HookDeliveryPassDeps, signal?: AbortSignal) =>
    deliverDueHooks(context, undefined, { signal }),
};

async function attempt(context: HookDeliveryPassDeps, delivery: DueDelivery): Promise<void> {
  const attemptAt = context.clock.now();
  const started = Date.now();
  let verdict: AttemptVerdict;
  let answered: boolean | undefined;
  try {
    const outcome = await safePost(
      {
        url: delivery.target_url,
        headers: {
          'content-type': 'application/json',
          ...(await signedHeaders(context, delivery, attemptAt)),
        },
        body: delivery.body,
      },
      outboundOptions(context),
    );
    verdict = judge(outcome, attemptAt);
    // A refused URL was never asked: it says nothing about the endpoint.
    if (outcome.kind !== 'refused') answered = outcome.kind === 'response';
  } catch (error) {
    context.logger.error(
      { err: error, deliveryId: delivery.id },
      'hook delivery attempt failed unexpectedly',
    );
    verdict = { kind: 'retry', reason: 'internal error', status: null };
  }
  const attempts = delivery.attempts + 1;
  // When recording fails the lease runs out and the delivery is tried again (at least once).
  await inTransaction(context.pool, async (tx) => {
    await record(tx, delivery, attempts, verdict, attemptAt, Date.now() - started);
    if (answered === true) await wakeEndpoint(tx, delivery.team_id, delivery.target_host);
    if (answered === false)
      await restEndpoint(tx, delivery.team_id, delivery.target_host, attemptAt, context.clock.now());
  }).catch((error: unknown) =>
    context.logger.error({ err: error, deliveryId: delivery.id }, 'could not record a hook delivery attempt'),
  );
}

async function record(
  tx: PoolClient,
  delivery: DueDelivery,
  attempts: number,
  verdict: AttemptVerdict,
  attemptAt: Date,
  durationMs: number,
): Promise<void> {
  const error = verdict.kind === 'succeeded' ? null : verdict.reason;
  const step = nextStep(hookRetries, verdict, attempts, attemptAt);
  await tx.query(
    `insert into hook_delivery_attempts
       (delivery_id, round, attempt, attempted_at, status_code, error, duration_ms, next_attempt_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing`,
    [
      delivery.id,
      delivery.round,
      attempts,
      attemptAt,
      verdict.status,
      error,
      durationMs,
      step.state === 'retrying' ? step.at : null,
    ],
  );
  await endAttempt(tx, deliveries, delivery.id, step, {
    attempts,
    columns: {
      last_status_code: verdict.status,
      last_error: error,
      updated_at: attemptAt,
      delivered_at: step.state === 'done' ? attemptAt : null,
    },
  });
}

/** The next attempt after the `attempts`-th failed at `attemptAt`: the schedule's wait, or a longer Retry-After (≤ 1 h). */
export function nextHookAttemptAt(attemptAt: Date, attempts: number, retryAfter?: number): Date {
  const wait = HOOK_RETRY_WAITS_SECONDS[Math.min(attempts, HOOK_RETRY_WAITS_SECONDS.length) - 1] ?? 0;
  return new Date(attemptAt.getTime() + Math.max(wait, retryAfter ?? 0) * 1000);
}
