import { randomUUID } from 'node:crypto';
import { writePaymentReferences, type ReferenceKind } from './payment-references.ts';
import { metadataTarget } from './payment-targets.ts';
import { fieldConfigOf, onOnboarding, type Outcome, type StripeEventScope } from './stripe-event-scope.ts';
import { checkoutSessionSchema, type CheckoutSession } from './stripe-objects.ts';

/*
 * Checkout Sessions of the client's form (POST /portal/v1/onboardings/:token/fields/:field_id/checkout):
 *   checkout.session.completed, payment_status paid   -> RecordPayment (payment.succeeded)
 *   checkout.session.completed, unpaid                 -> nothing yet (an asynchronous method settles later)
 *   checkout.session.async_payment_succeeded           -> RecordPayment
 *   checkout.session.async_payment_failed              -> RecordPaymentFailure (payment_failed)
 * The session's metadata names the onboarding, field and team; the event must come from
 * that team's connected account.
 */

function parsedSession(scope: StripeEventScope): CheckoutSession | null {
  const parsed = checkoutSessionSchema.safeParse(scope.event.object);
  return parsed.success ? parsed.data : null;
}

/** A paid session records the field's payment once (per payment intent, or subscription). */
export async function checkoutPaid(scope: StripeEventScope): Promise<Outcome> {
  const session = parsedSession(scope);
  if (session === null) return 'malformed';
  if (session.payment_status !== 'paid') {
    return session.payment_status === 'unpaid' ? 'awaiting_payment' : `not_paid:${session.payment_status}`;
  }
  const subscriptionId = session.mode === 'subscription' ? (session.subscription ?? null) : null;
  const paymentIntentId = subscriptionId ?? session.payment_intent ?? null;
  if (paymentIntentId === null || session.amount_total === null) return 'malformed';
  const target = await metadataTarget(scope, session.metadata);
  if (typeof target === 'string') return target;
  const outcome = await onOnboarding(scope, target, (onboarding) => {
    const interval = fieldConfigOf(onboarding, target.field_id)?.interval;
    return {
      type: 'RecordPayment',
      data: {
        field_id: target.field_id,
        payment_id: randomUUID(),
        payment_intent_id: paymentIntentId,
        amount_cents: session.amount_total!,
        subscription_id: subscriptionId,
        interval: subscriptionId !== null && typeof interval === 'string' ? interval : null,
      },
      metadata: { now: scope.now },
    };
  });
  if (outcome === 'recorded' || outcome === 'already_recorded') {
    const references: Array<{ kind: ReferenceKind; reference: string }> = [
      { kind: 'checkout_session', reference: session.id },
    ];
    if (subscriptionId !== null) references.push({ kind: 'subscription', reference: subscriptionId });
    else references.push({ kind: 'payment_intent', reference: paymentIntentId });
    await writePaymentReferences(scope.tx, target, references, scope.now);
  }
  return outcome;
}

/** An asynchronous payment of the session failed: the form offers another try. */
export async function checkoutFailed(scope: StripeEventScope): Promise<Outcome> {
  const session = parsedSession(scope);
  if (session === null) return 'malformed';
  const target = await metadataTarget(scope, session.metadata);
  if (typeof target === 'string') return target;
  return onOnboarding(scope, target, () => ({
    type: 'RecordPaymentFailure',
    data: {
      field_id: target.field_id,
      checkout_session_id: session.id,
      payment_intent_id: session.payment_intent ?? null,
    },
    metadata: { now: scope.now },
  }));
}
