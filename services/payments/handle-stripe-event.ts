import { inCommandTransaction } from '../../shared/commands/handle-command.ts';
import { accountUpdated } from './account-events.ts';
import { checkoutFailed, checkoutPaid } from './checkout-events.ts';
import { claimStripeEvent, recordStripeEventOutcome } from './handled-stripe-events.ts';
import { chargeRefunded } from './refund-events.ts';
import type {
  Outcome,
  StripeEventDeps,
  StripeEventEnvelope,
  StripeEventScope,
} from './stripe-event-scope.ts';
import { invoicePaid, subscriptionDeleted } from './subscription-events.ts';

/** What each Stripe event type records; any other type is handled by doing nothing. */
const HANDLERS: Readonly<Record<string, (scope: StripeEventScope) => Promise<Outcome>>> = {
  'checkout.session.completed': checkoutPaid,
  'checkout.session.async_payment_succeeded': checkoutPaid,
  'checkout.session.async_payment_failed': checkoutFailed,
  'invoice.paid': invoicePaid,
  'customer.subscription.deleted': subscriptionDeleted,
  'charge.refunded': chargeRefunded,
  'account.updated': accountUpdated,
};

/** The Stripe event types the service acts on (the endpoint's subscription at Stripe). */
export const STRIPE_EVENT_TYPES = Object.keys(HANDLERS);

/**
 * Handles a verified Stripe event once: one transaction claims its id
 * (./handled-stripe-events.ts), runs the command it causes and records the outcome, so the
 * id and the command's events commit together or not at all. A repeat of the id answers
 * `replayed` and changes nothing; so do events that concern no onboarding of the account's team.
 */
export function handleStripeEvent(
  deps: StripeEventDeps,
  event: StripeEventEnvelope,
  requestId: string,
): Promise<Outcome> {
  return inCommandTransaction(deps, async (tx) => {
    const now = deps.clock.now();
    if (!(await claimStripeEvent(tx, event, now))) return 'replayed';
    const handler = HANDLERS[event.type];
    const outcome = handler ? await handler({ deps, tx, event, requestId, now }) : 'ignored_type';
    await recordStripeEventOutcome(tx, event.id, outcome);
    return outcome;
  });
}
