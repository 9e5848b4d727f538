import { stripeAccountOfTeam } from '../access/index.ts';
import { paymentOfReference, type PaymentTarget, type ReferenceKind } from './payment-references.ts';
import type { Outcome, StripeEventScope } from './stripe-event-scope.ts';
import type { OnboardingPaymentMetadata } from './stripe-objects.ts';

/*
 * Where a Stripe object's payment belongs, or why it belongs nowhere (the outcome). An
 * event only ever reaches an onboarding of the team whose connected account it came from.
 */

/**
 * From the metadata the portal's Checkout writes (session, payment intent, subscription):
 * it names an onboarding field of a team, and the event's account is that team's account.
 */
export async function metadataTarget(
  scope: StripeEventScope,
  metadata: OnboardingPaymentMetadata,
): Promise<PaymentTarget | Outcome> {
  const { onboarding_id, field_id, team_id } = metadata;
  if (!onboarding_id || !field_id || !team_id) return 'not_an_onboarding_payment';
  const account = await stripeAccountOfTeam(scope.tx, team_id);
  if (account === null) return 'unknown_team';
  if (scope.event.account === null || account.stripe_account_id !== scope.event.account) {
    return 'foreign_account';
  }
  return { onboarding_id, field_id, team_id, stripe_account_id: scope.event.account };
}

/**
 * From the references of a recorded payment (./payment-references.ts), else from the
 * object's metadata; a referenced payment's events must come from the account it was paid to.
 */
export async function referencedTarget(
  scope: StripeEventScope,
  kind: ReferenceKind,
  reference: string,
  metadata: OnboardingPaymentMetadata,
): Promise<PaymentTarget | Outcome> {
  const referenced = await paymentOfReference(scope.tx, kind, reference);
  if (referenced === null) {
    const target = await metadataTarget(scope, metadata);
    return target === 'not_an_onboarding_payment' ? 'unknown_payment' : target;
  }
  if (referenced.stripe_account_id !== scope.event.account) return 'foreign_account';
  return referenced;
}
