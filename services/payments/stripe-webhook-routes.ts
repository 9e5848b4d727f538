import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../shared/app-deps.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { KIB } from '../../shared/http/body-limits.ts';
import { stripeWebhooks } from '../../shared/stripe/stripe-client.ts';
import { handleStripeEvent } from './handle-stripe-event.ts';
import type { StripeEventDeps, StripeEventEnvelope } from './stripe-event-scope.ts';

export type StripeWebhookDeps = StripeEventDeps & Pick<Platform, 'settings'>;

/** Stripe's events are a few KiB, an object with long lists some hundreds: this is room enough. */
export const STRIPE_EVENT_BODY_LIMIT = 512 * KIB;

/** Stripe's own tolerance (seconds) between the signature's timestamp and now (the spec: five minutes). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const invalidSignature = () =>
  codedError(400, 'invalid_signature', 'The Stripe-Signature header does not sign this body');

/**
 * The event, when the Stripe-Signature header signs the raw body with the endpoint's
 * secret within the tolerance (the `stripe` package's constructEvent, by the wall clock,
 * as Stripe signs); else 400 invalid_signature.
 */
function verifiedEvent(body: unknown, header: unknown, secret: string): StripeEventEnvelope {
  if (!Buffer.isBuffer(body) || typeof header !== 'string' || header === '') throw invalidSignature();
  let event: { id?: unknown; type?: unknown; account?: unknown; data?: { object?: unknown } };
  try {
    event = stripeWebhooks().constructEvent(body, header, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw codedError(400, 'invalid_body', 'The body is not a Stripe event');
    }
    throw invalidSignature();
  }
  if (typeof event.id !== 'string' || typeof event.type !== 'string' || event.id === '') {
    throw codedError(400, 'invalid_body', 'The body is not a Stripe event');
  }
  return {
    id: event.id,
    type: event.type,
    account: typeof event.account === 'string' ? event.account : null,
    object: event.data?.object,
  };
}

/**
 * POST /webhooks/stripe (docs/decisions/0070-stripe-webhooks.md): Stripe's events, exactly
 * as Stripe sends them, the raw body verified against STRIPE_WEBHOOK_SECRET. 200 for every
 * verified event, whether it recorded something or not (Stripe would only retry a refusal);
 * 400 invalid_signature for a missing, wrong or stale signature, nothing changed; 404 while
 * STRIPE_WEBHOOK_SECRET is unset (the endpoint is off). The face (services/app/apis/)
 * hands the body over unparsed.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, { context }: { context: StripeWebhookDeps }) {
  app.post(
    '/stripe',
    // Not an operation of the four APIs: Stripe is its only caller (the endpoint is set up at Stripe).
    { bodyLimit: STRIPE_EVENT_BODY_LIMIT, schema: { hide: true } },
    async (request, reply) => {
      const secret = context.settings.STRIPE_WEBHOOK_SECRET;
      if (secret === undefined) return reply.callNotFound();
      const event = verifiedEvent(request.body, request.headers['stripe-signature'], secret);
      const outcome = await handleStripeEvent(context, event, request.id);
      request.log.info({ stripe_event_id: event.id, stripe_event_type: event.type, outcome }, 'stripe event');
      return reply.status(200).send({ received: true, outcome });
    },
  );
}
