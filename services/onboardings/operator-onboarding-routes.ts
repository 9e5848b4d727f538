import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { toDomainEvent } from '../../shared/commands/handle-command.ts';
import { readOnboarding } from './onboarding-unit-of-work.ts';
import { portalLink } from './invite-email.ts';
import { activeTokenHash, ERROR_TEXTS, type OnboardingCommand } from './decider/index.ts';
import { INT4_MAX } from '../../shared/validation/safe-text.ts';
import { currentMember } from '../../projections/teams/queries.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { onboardingStreamId, type OnboardingEvent, type PaymentSucceeded } from './onboarding-events.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { clearTokenFromInvites } from './client-link.ts';
import { memberEvidence } from './signature-evidence.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import {
  decidedEvent,
  runOnboardingRouteCommand,
  type OnboardingRouteCommandDeps,
} from './onboarding-route-command.ts';
import { getOnboarding, onboardingDetail } from '../../projections/onboardings/queries.ts';
import { operatorSchema } from '../../shared/http/route-schema.ts';
import { SECRET_ANSWER } from '../../shared/http/secret-answer.ts';

export type OperatorOnboardingRouteDeps = Pick<
  Platform,
  'eventStore' | 'clock' | 'pool' | 'settings' | 'readPool' | 'vault'
> &
  OnboardingRouteCommandDeps;

/*
 * Operator routes of one onboarding (operator-and-portal-api.md, Operator API):
 * GET link, POST payments, POST countersign, POST archive. They act as the service itself
 * (no team scope in the path: the onboarding id names it). Refusals of the onboarding
 * aggregate answer with the onboarding endpoints' codes: 404 target_unavailable (unknown;
 * archived or erased for payments and countersign), 404 field_not_found (no such field of
 * that kind), 409 invalid_state.
 */

const params = z.object({ onboarding_id: z.string().uuid() });

const linkSchema = z.object({
  token: z
    .string()
    .nullable()
    .describe(
      'the active client token, or null (no working link; or a draft, whose creation token is only in the create answer)',
    ),
  url: z.string().nullable().describe('the form page of the token (PUBLIC_URL/f/<token>), or null'),
  pin_required: z.boolean().describe('the link asks for a PIN (X-Onboarding-Pin)'),
});

const paymentBody = z
  .object({
    field_id: z.string().min(1).max(100).describe('a payment field of the onboarding'),
    // Processors cap a charge far below this (Stripe: 99,999,999); int4 keeps every read model safe.
    amount_cents: z.number().int().positive().max(INT4_MAX),
    payment_intent_id: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .describe("the processor's payment id; recorded once"),
    subscription_id: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .nullable()
      .optional()
      .describe('a recurring subscription'),
    interval: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .nullable()
      .optional()
      .describe('billing interval of the subscription (month, year, ...)'),
  })
  .refine((body) => !body.interval || body.subscription_id, {
    message: 'interval needs subscription_id',
    path: ['interval'],
  });

const paymentSchema = z.object({
  id: z.string().uuid(),
  onboarding_id: z.string().uuid(),
  field_id: z.string(),
  amount_cents: z.number().int(),
  payment_intent_id: z.string(),
  subscription_id: z.string().nullable(),
  recurring: z.boolean(),
  interval: z.string().nullable(),
  paid_at: z.string(),
});

const countersignBody = z.object({
  field_id: z.string().min(1).max(100).describe('a signature field of the onboarding'),
  member_id: z.string().uuid().describe("a current member of the onboarding's team"),
});

const signatureSchema = z.object({
  id: z.string().uuid(),
  onboarding_id: z.string().uuid(),
  field_id: z.string(),
  signer_name: z.string(),
  signer_email: z.string(),
  signer_role: z.literal('team_member'),
  member_id: z.string().uuid(),
  signed_at: z.string(),
});

const notFound = () => codedError(404, 'target_unavailable', ERROR_TEXTS.target_unavailable);

const paymentView = (data: PaymentSucceeded['data']) => ({
  id: data.payment_id,
  onboarding_id: data.onboarding_id,
  field_id: data.field_id,
  amount_cents: data.amount_cents,
  payment_intent_id: data.payment_intent_id,
  subscription_id: data.subscription_id,
  recurring: data.recurring,
  interval: data.interval,
  paid_at: data.paid_at,
});

/** What the routes of this file share. */
function operatorOnboardingKit(context: OperatorOnboardingRouteDeps) {
  /** One command of the operator on the onboarding, decided now. */
  const run = (request: FastifyRequest, onboardingId: string, command: Undated<OnboardingCommand>) =>
    runOnboardingRouteCommand(
      context,
      request,
      onboardingId,
      () => ({ ...command, metadata: { now: context.clock.now() } }) as OnboardingCommand,
      notFound,
    );
  return { context, run };
}

/** A command without its metadata (each kind of command on its own). */
type Undated<C> = C extends unknown ? Omit<C, 'metadata'> : never;

type OperatorOnboardingKit = ReturnType<typeof operatorOnboardingKit>;

/** GET /onboardings/:onboarding_id/link */
function getOnboardingsByOnboardingIdLinkRoute(app: ZodApp, { context }: OperatorOnboardingKit) {
  app.get(
    '/onboardings/:onboarding_id/link',
    {
      config: SECRET_ANSWER,
      schema: operatorSchema(
        'adminGetOnboardingLink',
        "The onboarding's active client link: token and portal URL (null when no link works)",
        { description: '200 `token` (the active client token, or null) and `url`.', params },
        { 200: linkSchema, 404: coded('Unknown onboarding (code target_unavailable)') },
      ),
    },
    async (request) => {
      const { state } = await readOnboarding(context.eventStore, request.params.onboarding_id);
      if (state.status === 'absent') throw notFound();
      const hash = activeTokenHash(state, context.clock.now());
      const token =
        hash === null ? undefined : await clearTokenFromInvites(context.pool, context.vault, state.id, hash);
      return {
        token: token ?? null,
        url: token ? portalLink(context.settings.PUBLIC_URL, token) : null,
        pin_required: state.pin !== null,
      };
    },
  );
}

/** POST /onboardings/:onboarding_id/payments */
function postOnboardingsByOnboardingIdPaymentsRoute(app: ZodApp, { context, run }: OperatorOnboardingKit) {
  app.post(
    '/onboardings/:onboarding_id/payments',
    {
      schema: operatorSchema(
        'adminRecordPayment',
        'Record a processor-confirmed payment of a payment field (payment.succeeded; recurring with subscription_id)',
        { params, body: paymentBody },
        {
          201: z.object({ payment: paymentSchema }).describe('Recorded'),
          200: z
            .object({ payment: paymentSchema })
            .describe('This payment_intent_id was recorded before: the original payment, nothing new'),
          404: coded(
            'Unknown, archived or erased onboarding (target_unavailable); not a payment field (field_not_found)',
          ),
          409: coded('The onboarding was never sent (code invalid_state)'),
        },
      ),
    },
    async (request, reply) => {
      const { onboarding_id: onboardingId } = request.params;
      const body = request.body;
      const outcome = await run(request, onboardingId, {
        type: 'RecordPayment',
        data: {
          field_id: body.field_id,
          payment_id: randomUUID(),
          payment_intent_id: body.payment_intent_id,
          amount_cents: body.amount_cents,
          subscription_id: body.subscription_id ?? null,
          interval: body.interval ?? null,
        },
      });
      const paid = outcome.events.find((event) => event.type === 'payment.succeeded');
      if (paid?.type === 'payment.succeeded')
        return reply.status(201).send({ payment: paymentView(paid.data) });
      // Recorded before: answer with the payment of that intent.
      const stream = await context.eventStore.readStream(onboardingStreamId(onboardingId));
      const original = stream
        .map(toDomainEvent<OnboardingEvent>)
        .find(
          (event): event is PaymentSucceeded =>
            event.type === 'payment.succeeded' && event.data.payment_intent_id === body.payment_intent_id,
        );
      if (!original) throw new Error('RecordPayment decided nothing for an unknown payment intent');
      return reply.status(200).send({ payment: paymentView(original.data) });
    },
  );
}

/** POST /onboardings/:onboarding_id/countersign */
function postOnboardingsByOnboardingIdCountersignRoute(app: ZodApp, { context, run }: OperatorOnboardingKit) {
  app.post(
    '/onboardings/:onboarding_id/countersign',
    {
      schema: operatorSchema(
        'adminCountersign',
        'A team member countersigns a signature field (signature.signed with signer_role team_member)',
        { params, body: countersignBody },
        {
          201: z.object({ signature: signatureSchema }),
          404: coded(
            'Unknown, archived or erased onboarding (target_unavailable); not a signature field (field_not_found); not a current member of the team (member_not_found)',
          ),
          409: coded('The onboarding is neither in progress nor completed (code invalid_state)'),
        },
      ),
    },
    async (request, reply) => {
      const { onboarding_id: onboardingId } = request.params;
      const { field_id: fieldId, member_id: memberId } = request.body;
      const { state } = await readOnboarding(context.eventStore, onboardingId);
      if (state.status === 'absent') throw notFound();
      const signer = await currentMember(context.pool, state.team_id, memberId);
      if (!signer) throw codedError(404, 'member_not_found', 'Member not found');
      const signatureId = randomUUID();
      const outcome = await run(request, onboardingId, {
        type: 'SignField',
        data: {
          field_id: fieldId,
          signature_id: signatureId,
          signer_name: signer.name,
          signer_email: signer.email,
          signer: { role: 'team_member', member_id: memberId },
          // The operator's request on the member's behalf: its IP, user agent and the answers then.
          evidence: await memberEvidence(context, request, state),
        },
      });
      const signed = decidedEvent(outcome, 'signature.signed', 'SignField');
      return reply.status(201).send({
        signature: {
          id: signatureId,
          onboarding_id: onboardingId,
          field_id: signed.data.field_id,
          signer_name: signer.name,
          signer_email: signer.email,
          signer_role: 'team_member' as const,
          member_id: memberId,
          signed_at: signed.data.signed_at,
        },
      });
    },
  );
}

/** POST /onboardings/:onboarding_id/archive */
function postOnboardingsByOnboardingIdArchiveRoute(app: ZodApp, { context, run }: OperatorOnboardingKit) {
  app.post(
    '/onboardings/:onboarding_id/archive',
    {
      schema: operatorSchema(
        'adminArchiveOnboarding',
        'Archive an onboarding (it then answers 404 target_unavailable to PATCH and send)',
        { params },
        {
          200: z.object({ onboarding: onboardingDetail }),
          404: coded('Unknown onboarding, or its client was erased (code target_unavailable)'),
        },
      ),
    },
    async (request) => {
      const { onboarding_id: onboardingId } = request.params;
      const { state } = await readOnboarding(context.eventStore, onboardingId);
      if (state.status === 'absent' || state.client_erased_at !== null) throw notFound();
      await run(request, onboardingId, { type: 'ArchiveOnboarding', data: {} });
      const onboarding = await getOnboarding(context.readPool, context.vault, state.team_id, onboardingId);
      if (!onboarding) throw notFound();
      return { onboarding };
    },
  );
}

export async function operatorOnboardingRoutes(
  plain: FastifyInstance,
  { context }: { context: OperatorOnboardingRouteDeps },
) {
  const app = zodApp(plain);
  const kit = operatorOnboardingKit(context);
  getOnboardingsByOnboardingIdLinkRoute(app, kit);
  postOnboardingsByOnboardingIdPaymentsRoute(app, kit);
  postOnboardingsByOnboardingIdCountersignRoute(app, kit);
  postOnboardingsByOnboardingIdArchiveRoute(app, kit);
}
