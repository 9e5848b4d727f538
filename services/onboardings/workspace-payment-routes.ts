import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { inCommandTransaction, toDomainEvent } from '../../shared/commands/handle-command.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { answeringRefusals } from '../../shared/http/domain-errors.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata, signedIn } from '../../shared/http/workspace-request.ts';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { getOnboarding } from '../../projections/onboardings/queries.ts';
import { searchOnboardings, workspaceOnboarding } from '../../projections/onboardings/workspace-queries.ts';
import { memberNames, teamById } from '../../projections/teams/queries.ts';
import { MARK_PAID_NOTE_MAX, onboardingDecider, type OnboardingState } from './decider/index.ts';
import type { OnboardingEvent } from './onboarding-events.ts';
import { onboardingErrors } from './onboarding-errors.ts';
import { templateFacts } from './onboarding-facts.ts';
import { runOnboardingRouteCommand } from './onboarding-route-command.ts';
import { onboardingNotFound, teamOnboardingEvents } from './onboarding-stream-view.ts';
import { runOnboardingCommand } from './onboarding-unit-of-work.ts';
import { currentSnapshot, isTestModeKey, PAYMENT_VIEW_STATUSES, paymentsOf } from './payments-view.ts';

/*
 * Payments on the team's side (workspace):
 *
 *   GET  /onboardings/:id/payments                     every payment field and its payment (every role)
 *   POST /onboardings/:id/fields/:field_id/mark-paid   { note } money received outside Stripe (owners, admins)
 *   POST /onboardings/:id/refresh-template             a draft takes its template's latest version
 *
 * The payments come from the onboarding's stream (./payments-view.ts). Mark as paid runs
 * MarkPaid with the member as actor: it answers the field, and is no payment.succeeded.
 * Refusals: 404 target_unavailable (unknown, another team's, erased client's), 404
 * field_not_found (no such payment field), 409 invalid_state (never sent; refresh: not a
 * draft), 409 payment_already_received, 404 template_missing (refresh: template deleted).
 */

const params = z.object({ onboarding_id: z.string().uuid() });
const fieldParams = params.extend({ field_id: z.string().min(1).max(100) });
const markPaidBody = z.object({
  note: z
    .string()
    .trim()
    .min(1, 'note is required')
    .max(MARK_PAID_NOTE_MAX)
    .describe('how the money was received (bank transfer, cash, ...); 1 to 500 characters'),
});

const paymentSchema = z.object({
  field_id: z.string(),
  step_id: z.string(),
  label: z.string(),
  required: z.boolean(),
  amount_cents: z.number().int().nullable(),
  currency: z.string().describe('lower-case ISO 4217 code'),
  interval: z.string().nullable().describe('the subscription interval; null for a one-time payment'),
  status: z.enum(PAYMENT_VIEW_STATUSES),
  paid_at: z.string().nullable(),
  payment_id: z.string().nullable(),
  payment_intent_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  refunded_cents: z.number().int(),
  refunded_at: z.string().nullable(),
  renewals: z.object({
    count: z.number().int(),
    last_paid_at: z.string().nullable(),
    last_amount_cents: z.number().int().nullable(),
  }),
  subscription_ended_at: z.string().nullable(),
  failed_attempts: z.number().int(),
  last_failed_at: z.string().nullable(),
  marked_by: z.object({ member_id: z.string(), name: z.string() }).nullable(),
  note: z.string().nullable(),
  dashboard_url: z.string().nullable().describe('the payment in Stripe’s dashboard; null for Mark as paid'),
});

const NOT_FOUND = 'Unknown onboarding, another team’s, or its client was erased (code target_unavailable)';

type ReadDeps = Pick<WorkspaceDeps, 'settings' | 'readPool'>;

/** The onboarding's state folded from its events (absent for none). */
const stateOf = (events: readonly OnboardingEvent[]): OnboardingState =>
  events.reduce(onboardingDecider.evolve, onboardingDecider.initialState());

/** The draft's template differs from the template's latest version (false when not a draft or deleted). */
async function templateOutdated(context: ReadDeps, teamId: string, state: OnboardingState) {
  if (state.status !== 'draft') return false;
  const client = await context.readPool.connect();
  try {
    const template = await templateFacts(client, teamId, state.template_id);
    return template !== undefined && !isDeepStrictEqual(template.snapshot, state.snapshot);
  } finally {
    client.release();
  }
}

/** The answer of GET payments: the payments with the markers' names, the team's locale, the draft's template. */
async function paymentsAnswer(context: ReadDeps, teamId: string, recorded: readonly RecordedEvent[]) {
  const events = recorded.map(toDomainEvent<OnboardingEvent>);
  const snapshot = currentSnapshot(events);
  if (!snapshot) throw onboardingNotFound();
  const [names, team, outdated] = await Promise.all([
    memberNames(context.readPool, teamId),
    teamById(context.readPool, teamId),
    templateOutdated(context, teamId, stateOf(events)),
  ]);
  const testMode = isTestModeKey(context.settings.STRIPE_SECRET_KEY);
  const payments = paymentsOf(events, snapshot, { testMode }).map((payment) => ({
    ...payment,
    marked_by: payment.marked_by && {
      member_id: payment.marked_by.member_id,
      name: names.get(payment.marked_by.member_id) ?? 'Former member',
    },
  }));
  return { payments, locale: team?.locale ?? 'en-US', template_outdated: outdated };
}

/** GET /onboardings/:onboarding_id/payments */
function getPaymentsRoute(app: ZodApp, context: WorkspaceDeps) {
  app.get(
    '/onboardings/:onboarding_id/payments',
    {
      config: { workspace: { action: 'answers.read' } },
      schema: workspaceSchema(
        'workspaceListPayments',
        'Every payment field of the onboarding with its payment: amount, status, when, Stripe ids, refunds, later periods, Mark as paid, the link to Stripe’s dashboard; and whether a draft’s template changed since',
        { params },
        {
          200: z.object({
            payments: z.array(paymentSchema),
            locale: z.string().describe('the team’s locale, for amounts'),
            template_outdated: z
              .boolean()
              .describe(
                'a draft whose template changed since it was made (POST refresh-template updates it)',
              ),
          }),
          404: coded(NOT_FOUND),
        },
      ),
    },
    async (request) => {
      const teamId = signedIn(request).teamId;
      const events = await teamOnboardingEvents(context, request, request.params.onboarding_id);
      return paymentsAnswer(context, teamId, events);
    },
  );
}

/** POST /onboardings/:onboarding_id/fields/:field_id/mark-paid */
function postMarkPaidRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/onboardings/:onboarding_id/fields/:field_id/mark-paid',
    {
      config: { workspace: { action: 'payments.mark_paid' } },
      schema: workspaceSchema(
        'workspaceMarkPaid',
        'Mark a payment field paid for money received outside Stripe (bank transfer, cash), with a note: it answers the field; the member is the actor',
        { params: fieldParams, body: markPaidBody },
        {
          201: z.object({ payment: paymentSchema }),
          404: coded(`${NOT_FOUND}; not a payment field (field_not_found)`),
          409: coded(
            'The payment was already received (payment_already_received); the onboarding was never sent (invalid_state)',
          ),
        },
      ),
    },
    async (request, reply) => {
      const { onboarding_id: onboardingId, field_id: fieldId } = request.params;
      const session = signedIn(request);
      await teamOnboardingEvents(context, request, onboardingId);
      await runOnboardingRouteCommand(
        context,
        request,
        onboardingId,
        () => ({
          type: 'MarkPaid',
          data: {
            team_id: session.teamId,
            field_id: fieldId,
            payment_id: randomUUID(),
            member_id: session.memberId,
            note: request.body.note,
          },
          metadata: { now: context.clock.now() },
        }),
        onboardingNotFound,
        undefined,
        memberMetadata(request, session.memberId),
      );
      const events = await teamOnboardingEvents(context, request, onboardingId);
      const { payments } = await paymentsAnswer(context, session.teamId, events);
      const payment = payments.find((one) => one.field_id === fieldId);
      if (!payment) throw new Error('A payment marked paid is missing from the payments');
      return reply.status(201).send({ payment });
    },
  );
}

/** The team's onboarding as the workspace's onboarding routes answer it. */
async function workspaceOnboardingOf(context: WorkspaceDeps, teamId: string, id: string) {
  const detail = await getOnboarding(context.readPool, context.vault, teamId, id);
  if (!detail) throw onboardingNotFound();
  const [item] = (
    await searchOnboardings(context.readPool, context.vault, teamId, context.clock.now(), { id })
  ).data;
  if (!item) throw onboardingNotFound();
  return { ...item, template_snapshot: detail.template_snapshot };
}

/** Runs RefreshTemplate with the template found as onboarding creation finds it. */
async function refreshTemplate(context: WorkspaceDeps, request: FastifyRequest, onboardingId: string) {
  const session = signedIn(request);
  const outcome = await answeringRefusals(onboardingErrors, () =>
    inCommandTransaction(context, (tx) =>
      runOnboardingCommand(
        context,
        tx,
        onboardingId,
        async (state) => ({
          type: 'RefreshTemplate',
          data: {
            team_id: session.teamId,
            member_id: session.memberId,
            template:
              state.status === 'absent'
                ? null
                : ((await templateFacts(tx, session.teamId, state.template_id)) ?? null),
          },
          metadata: { now: context.clock.now() },
        }),
        memberMetadata(request, session.memberId),
      ),
    ),
  );
  await awaitReadModels(context, outcome.position);
}

/** POST /onboardings/:onboarding_id/refresh-template */
function postRefreshTemplateRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/onboardings/:onboarding_id/refresh-template',
    {
      config: { workspace: { action: 'onboardings.manage' } },
      schema: workspaceSchema(
        'workspaceRefreshTemplate',
        'A draft takes its template’s latest version (after the template was fixed); nothing changes when it has it already',
        { params },
        {
          200: z.object({ onboarding: workspaceOnboarding }),
          404: coded(`${NOT_FOUND}; the template was deleted (template_missing)`),
          409: coded('Only a draft takes its template again (code invalid_state)'),
        },
      ),
    },
    async (request) => {
      const { onboarding_id: onboardingId } = request.params;
      const teamId = signedIn(request).teamId;
      await teamOnboardingEvents(context, request, onboardingId);
      await refreshTemplate(context, request, onboardingId);
      return { onboarding: await workspaceOnboardingOf(context, teamId, onboardingId) };
    },
  );
}

export async function workspacePaymentRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  const app = zodApp(plain);
  getPaymentsRoute(app, context);
  postMarkPaidRoute(app, context);
  postRefreshTemplateRoute(app, context);
}
