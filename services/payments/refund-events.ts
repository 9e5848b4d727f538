import { referencedTarget } from './payment-targets.ts';
import { onOnboarding, type Outcome, type StripeEventScope } from './stripe-event-scope.ts';
import { chargeSchema } from './stripe-objects.ts';

/*
 * charge.refunded -> RecordRefund (payment_refunded): the charge's refunded total so far,
 * and whether it is refunded in full. The payment is found through its payment intent's
 * reference, else the charge's metadata. Each refunded total is recorded once.
 */

export async function chargeRefunded(scope: StripeEventScope): Promise<Outcome> {
  const parsed = chargeSchema.safeParse(scope.event.object);
  if (!parsed.success) return 'malformed';
  const charge = parsed.data;
  const paymentIntentId = charge.payment_intent ?? null;
  if (paymentIntentId === null) return 'unknown_payment';
  const target = await referencedTarget(scope, 'payment_intent', paymentIntentId, charge.metadata);
  if (typeof target === 'string') return target;
  return onOnboarding(scope, target, () => ({
    type: 'RecordRefund',
    data: {
      field_id: target.field_id,
      payment_intent_id: paymentIntentId,
      charge_id: charge.id,
      amount_refunded_cents: charge.amount_refunded,
      fully_refunded: charge.refunded,
    },
    metadata: { now: scope.now },
  }));
}
