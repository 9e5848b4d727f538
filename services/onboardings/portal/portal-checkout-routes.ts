import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { z } from 'zod';
import { findClient } from '../../../projections/clients/queries.ts';
import { stripeAccountOfTeam } from '../../access/index.ts';
import { localizeField } from '../../templates/contract/field-catalogue.ts';
import {
  AMOUNT_RULE_TEXT,
  PAYMENT_INTERVALS,
  paymentCurrency,
  paymentProblem,
} from '../../templates/contract/payment-amount.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import type { RateLimiter } from '../../../shared/rate-limit/rate-limiter.ts';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { ERROR_TEXTS, type Onboarding } from '../decider/index.ts';
import { findField } from '../template-snapshot.ts';
import { enforcePortalLimit } from './portal-rate-limits.ts';
import { fieldParams, portalSchema, type PortalRequests } from './portal-requests.ts';

/*
 * POST /portal/v1/onboardings/:token/fields/:field_id/checkout (operator-and-portal-api.md,
 * Payments (Stripe); docs/decisions/0071-checkout-from-the-form.md): a Stripe Checkout
 * Session on the team's connected account for a payment field, whose url the form sends the
 * client to. The payment itself is recorded only by the webhook (POST /webhooks/stripe).
 *
 * - The client token never goes to Stripe: the success and cancel URLs are the form's
 *   return page (/f/checkout-return), which finds the link again in the tab's sessionStorage.
 * - One idempotency key per onboarding, field, amount, currency, interval and failed
 *   attempt (state.failed_payment_attempts), plus a digest of the rest of the request: the
 *   same click twice is one session, a retry after a failed payment a new one, and a
 *   changed language never meets Stripe's refusal of a reused key with other parameters.
 * - The client's email goes to Stripe (customer_email) and nowhere else: never logged.
 */

/** Checkouts per minute of one link: far above a person's clicks, far below a loop's. */
export const CHECKOUTS_PER_LINK_LIMIT = 6;
export const TOO_MANY_CHECKOUTS = 'Too many payment attempts for this form; try again in a minute';

export const PAYMENT_NOT_CONNECTED_TEXT = 'This team cannot take payments online yet';
export const PROCESSOR_UNAVAILABLE_TEXT = 'The payment processor did not answer; try again';

export const CHECKOUT_RETURN_PATH = '/f/checkout-return';

/** The form's languages as Stripe Checkout names them (all nine are supported). */
const CHECKOUT_LOCALES: Record<string, Stripe.Checkout.SessionCreateParams.Locale> = {
  'de-DE': 'de',
  'en-GB': 'en-GB',
  'en-US': 'en',
  'es-ES': 'es',
  'fr-FR': 'fr',
  'it-IT': 'it',
  'ja-JP': 'ja',
  'nl-NL': 'nl',
  'pt-BR': 'pt-BR',
};

/** Stripe Checkout's language for a form language: the exact one, else the language, else Stripe's choice. */
export function checkoutLocale(locale: string | undefined): Stripe.Checkout.SessionCreateParams.Locale {
  if (!locale) return 'auto';
  const exact = CHECKOUT_LOCALES[locale];
  if (exact) return exact;
  const language = locale.split('-')[0]!.toLowerCase();
  const same = Object.entries(CHECKOUT_LOCALES).find(([known]) => known.startsWith(`${language}-`));
  return same ? same[1] : 'auto';
}

const checkoutBody = z
  .object({
    locale: z
      .string()
      .max(35)
      .optional()
      .describe("the form's language (BCP 47); the Checkout page and the payment's description follow it"),
  })
  .nullish();

const notFound = () => codedError(404, 'field_not_found', ERROR_TEXTS.field_not_found);
const notConnected = () => codedError(409, 'payment_not_connected', PAYMENT_NOT_CONNECTED_TEXT);
const alreadyPaid = () => codedError(409, 'payment_already_received', ERROR_TEXTS.payment_already_received);

/**
 * What a payment field asks for, read from its snapshot config in `locale`; null for no
 * payment field of that id. A payment Stripe cannot take (an optional field the send did
 * not check) is refused in the words of the builder's rule.
 */
function paymentOf(onboarding: Onboarding, fieldId: string, locale: string | undefined) {
  const located = findField(onboarding.snapshot, fieldId);
  if (!located || located.field.type !== 'payment') return null;
  const field = localizeField(located.field, locale ?? '');
  const config = field.config ?? {};
  const problem = paymentProblem(config);
  if (problem) {
    const text = problem.code === 'amount' ? `The amount must be ${AMOUNT_RULE_TEXT}` : problem.message;
    throw codedError(409, 'invalid_payment', `This payment cannot be taken: ${text}`);
  }
  const interval = PAYMENT_INTERVALS.find((known) => known === config.interval) ?? null;
  const description = typeof config.description === 'string' ? config.description.trim() : '';
  return {
    fieldId: located.field.id,
    label: field.label,
    description: description || null,
    amount: config.amount_cents as number,
    currency: paymentCurrency(config),
    interval,
  };
}

type Payment = NonNullable<ReturnType<typeof paymentOf>>;

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** The session's parameters: mode, one line item, metadata on the session and on what it makes. */
export function checkoutParams(
  onboarding: Onboarding,
  payment: Payment,
  { email, locale, publicUrl }: { email: string | null; locale: string | undefined; publicUrl: string },
): Stripe.Checkout.SessionCreateParams {
  const metadata = { onboarding_id: onboarding.id, field_id: payment.fieldId, team_id: onboarding.team_id };
  const back = (outcome: 'success' | 'cancelled') =>
    `${publicUrl}${CHECKOUT_RETURN_PATH}?outcome=${outcome}&field=${encodeURIComponent(payment.fieldId)}`;
  return {
    mode: payment.interval ? 'subscription' : 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: payment.currency,
          unit_amount: payment.amount,
          product_data: {
            name: payment.label,
            ...(payment.description ? { description: payment.description } : {}),
          },
          ...(payment.interval ? { recurring: { interval: payment.interval } } : {}),
        },
      },
    ],
    metadata,
    ...(payment.interval ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
    client_reference_id: onboarding.id,
    ...(email ? { customer_email: email } : {}),
    locale: checkoutLocale(locale),
    success_url: back('success'),
    cancel_url: back('cancelled'),
  };
}

/** The idempotency key: the design's parts in the clear, the rest of the request as a digest. */
export function checkoutIdempotencyKey(
  onboarding: Onboarding,
  payment: Payment,
  params: Stripe.Checkout.SessionCreateParams,
): string {
  const attempt = onboarding.failed_payment_attempts[payment.fieldId] ?? 0;
  const parts = [onboarding.id, payment.amount, payment.currency, payment.interval ?? 'once', attempt];
  // Field ids are the template's; a digest keeps the key within Stripe's 255 characters.
  return `checkout:${parts.join(':')}:${digest([payment.fieldId, params]).slice(0, 32)}`;
}

/** A Stripe failure as the portal answers it: 502, retryable when Stripe or the network may recover. */
function processorUnavailable(error: unknown) {
  const retryable =
    !(error instanceof Stripe.errors.StripeError) ||
    ['StripeConnectionError', 'StripeAPIError', 'StripeRateLimitError'].includes(error.type);
  return codedError(502, 'payment_processor_unavailable', PROCESSOR_UNAVAILABLE_TEXT, undefined, retryable);
}

/** What a failed Stripe call leaves in the log: its kind, never the request (it holds the client's email). */
const stripeFailure = (error: unknown) =>
  error instanceof Stripe.errors.StripeError
    ? { type: error.type, code: error.code, status: error.statusCode, request_id: error.requestId }
    : { type: error instanceof Error ? error.name : typeof error };

export function portalCheckoutRoutes(
  app: FastifyInstance,
  { context, answering }: PortalRequests,
  { limiter, publicUrl }: { limiter: RateLimiter | null; publicUrl: string },
) {
  zodApp(app).post(
    '/onboardings/:token/fields/:field_id/checkout',
    {
      schema: portalSchema(
        {
          operationId: 'portalStartCheckout',
          summary: "Start paying a payment field: a Stripe Checkout Session on the team's connected account",
          description:
            "201 `url`: the client's browser goes there. `mode` `payment`, or `subscription` when the field has `config.interval`; metadata `onboarding_id`, `field_id`, `team_id` on the session and on its payment intent or subscription; the client's email prefilled. The success and cancel URLs lead back to the form (/f/checkout-return) and hold no token. The payment is recorded by POST /webhooks/stripe, not here.",
        },
        { params: fieldParams, body: checkoutBody },
        { 201: z.object({ url: z.string().url().describe('the Stripe Checkout page') }) },
        {
          404: 'Unknown, deactivated or expired link (code link_inactive); no payment field of that id (field_not_found)',
          409: 'The field is already paid (code payment_already_received); the team cannot take payments online (payment_not_connected); a payment Stripe cannot take (invalid_payment); not while the onboarding is in this status (invalid_state)',
          502: 'Stripe refused or did not answer (code payment_processor_unavailable; `retryable` says whether trying again may help)',
        },
      ),
    },
    async (request, reply) => {
      const link = await answering(request);
      if (limiter) {
        await enforcePortalLimit(
          limiter,
          `portal_checkout:${link.tokenHash}`,
          CHECKOUTS_PER_LINK_LIMIT,
          TOO_MANY_CHECKOUTS,
        );
      }
      const onboarding = link.state;
      const locale = request.body?.locale ?? undefined;
      const payment = paymentOf(onboarding, request.params.field_id, locale);
      if (!payment) throw notFound();
      if (onboarding.fulfilled_fields.includes(payment.fieldId)) throw alreadyPaid();
      if (onboarding.status !== 'sent' && onboarding.status !== 'in_progress') {
        throw codedError(409, 'invalid_state', ERROR_TEXTS.invalid_state, { status: onboarding.status });
      }
      const stripe = context.stripe;
      const account = stripe ? await stripeAccountOfTeam(context.pool, onboarding.team_id) : null;
      if (!stripe || !account?.stripe_account_id || account.stripe_account_state !== 'ready') {
        throw notConnected();
      }
      const client = await findClient(
        context.readPool,
        context.vault,
        onboarding.team_id,
        onboarding.client_id,
      );
      const params = checkoutParams(onboarding, payment, { email: client?.email ?? null, locale, publicUrl });
      const idempotencyKey = checkoutIdempotencyKey(onboarding, payment, params);
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(params, {
          stripeAccount: account.stripe_account_id,
          idempotencyKey,
        });
        // The same attempt after its session expired (Stripe keeps a key for a day or more): a new one.
        if (session.status === 'expired') {
          session = await stripe.checkout.sessions.create(params, {
            stripeAccount: account.stripe_account_id,
            idempotencyKey: `${idempotencyKey}:after:${session.id}`,
          });
        }
      } catch (error) {
        request.log.warn(
          { stripe: stripeFailure(error), onboarding_id: onboarding.id, field_id: payment.fieldId },
          'stripe checkout session not created',
        );
        throw processorUnavailable(error);
      }
      // A completed session of this attempt: the payment is made and its webhook on the way.
      if (session.status === 'complete') throw alreadyPaid();
      if (!session.url) throw processorUnavailable(new Error('a checkout session without a url'));
      return reply.status(201).send({ url: session.url });
    },
  );
}
