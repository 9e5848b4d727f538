import { referencedTarget } from './payment-targets.ts';
import { onOnboarding, type Outcome, type StripeEventScope } from './stripe-event-scope.ts';
import { invoiceSchema, subscriptionOfInvoice, subscriptionSchema } from './stripe-objects.ts';

/*
 * A subscription after its first period (whose payment.succeeded came with its Checkout):
 *   invoice.paid, billing_reason subscription_create   -> nothing (the first period)
 *   invoice.paid, a later period                       -> RecordSubscriptionRenewal (payment_renewed)
 *   customer.subscription.deleted                      -> RecordSubscriptionEnd (payment_subscription_ended)
 * The subscription is found through the references of its recorded payment, else its metadata.
 */

export async function invoicePaid(scope: StripeEventScope): Promise<Outcome> {
  const parsed = invoiceSchema.safeParse(scope.event.object);
  if (!parsed.success) return 'malformed';
  const invoice = parsed.data;
  if (invoice.billing_reason === 'subscription_create') return 'first_period';
  const subscriptionId = subscriptionOfInvoice(invoice);
  if (subscriptionId === null) return 'not_a_subscription';
  const metadata = invoice.parent?.subscription_details?.metadata ?? {};
  const target = await referencedTarget(scope, 'subscription', subscriptionId, metadata);
  if (typeof target === 'string') return target;
  return onOnboarding(scope, target, () => ({
    type: 'RecordSubscriptionRenewal',
    data: {
      field_id: target.field_id,
      subscription_id: subscriptionId,
      invoice_id: invoice.id,
      amount_cents: invoice.amount_paid,
    },
    metadata: { now: scope.now },
  }));
}

export async function subscriptionDeleted(scope: StripeEventScope): Promise<Outcome> {
  const parsed = subscriptionSchema.safeParse(scope.event.object);
  if (!parsed.success) return 'malformed';
  const subscription = parsed.data;
  const target = await referencedTarget(scope, 'subscription', subscription.id, subscription.metadata);
  if (typeof target === 'string') return target;
  return onOnboarding(scope, target, () => ({
    type: 'RecordSubscriptionEnd',
    data: { field_id: target.field_id, subscription_id: subscription.id },
    metadata: { now: scope.now },
  }));
}
