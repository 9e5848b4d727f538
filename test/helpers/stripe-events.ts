import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * Stripe webhook deliveries for tests, as Stripe sends them: a full event envelope (API
 * version of the pinned `stripe` package, `account` for a connected account's event) and
 * the `Stripe-Signature` header made by the package's own `generateTestHeaderString`.
 *
 *   const event = checkoutCompleted({ onboardingId, fieldId, teamId, account, amount: 5000, mode: 'payment' });
 *   const payload = JSON.stringify(event);
 *   await fetch(`${base}/webhooks/stripe`, { method: 'POST', body: payload,
 *     headers: signedStripeDelivery(payload, 'whsec_test') });
 */

/** The API version the service's `stripe` package speaks (and Stripe's events carry). */
export const STRIPE_TEST_API_VERSION = '2026-10-28.endive';

const stripeId = (prefix: string): string => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export interface StripeEventOptions {
  /** The connected account the event happened on (`event.account`); none for the platform's own. */
  account?: string;
  /** The event id; a fresh `evt_…` when absent (give one to replay a delivery). */
  id?: string;
  /** Seconds since the epoch; now when absent. */
  created?: number;
}

/** A full Stripe event JSON (a snapshot event) around `object`. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: StripeEventOptions = {},
): Record<string, unknown> {
  return {
    id: options.id ?? stripeId('evt'),
    object: 'event',
    ...(options.account !== undefined && { account: options.account }),
    api_version: STRIPE_TEST_API_VERSION,
    context: options.account ?? null,
    created: options.created ?? nowSeconds(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: stripeId('req'), idempotency_key: null },
    type,
  };
}

/** The headers of a signed delivery of `payload` (the exact body to send). */
export function signedStripeDelivery(
  payload: string,
  secret: string,
  options: { timestamp?: number } = {},
): Record<string, string> {
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
  });
  return {
    'content-type': 'application/json; charset=utf-8',
    'stripe-signature': signature,
    'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
  };
}

export interface CheckoutCompletedOptions {
  onboardingId: string;
  fieldId: string;
  teamId: string;
  /** The team's connected account (`event.account`). */
  account: string;
  /** amount_total in the smallest currency unit. */
  amount: number;
  mode: 'payment' | 'subscription';
  currency?: string;
  subscriptionId?: string;
  paymentIntentId?: string;
  sessionId?: string;
  /** 'paid' unless given ('unpaid' for a payment that settles later). */
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
  customerEmail?: string;
  eventId?: string;
  /** checkout.session.completed unless given (async_payment_succeeded / _failed share the object). */
  type?: string;
}

/** A Checkout Session object as the events carry it. */
export function checkoutSession(options: CheckoutCompletedOptions): Record<string, unknown> {
  const subscription = options.mode === 'subscription';
  const subscriptionId = subscription ? (options.subscriptionId ?? stripeId('sub')) : null;
  const paymentIntentId = subscription ? null : (options.paymentIntentId ?? stripeId('pi'));
  const metadata = {
    onboarding_id: options.onboardingId,
    field_id: options.fieldId,
    team_id: options.teamId,
  };
  const created = nowSeconds();
  return {
    id: options.sessionId ?? stripeId('cs'),
    object: 'checkout.session',
    amount_subtotal: options.amount,
    amount_total: options.amount,
    cancel_url: 'https://onboarding.example/portal/payment/cancel',
    client_reference_id: null,
    created,
    currency: options.currency ?? 'usd',
    customer: subscription ? stripeId('cus') : null,
    customer_details: {
      email: options.customerEmail ?? 'client@example.com',
      name: null,
      phone: null,
      tax_exempt: 'none',
    },
    customer_email: options.customerEmail ?? 'client@example.com',
    expires_at: created + 86_400,
    invoice: null,
    livemode: false,
    metadata,
    mode: options.mode,
    payment_intent: paymentIntentId,
    payment_method_types: ['card'],
    payment_status: options.paymentStatus ?? 'paid',
    status: 'complete',
    subscription: subscriptionId,
    success_url: 'https://onboarding.example/portal/payment/success',
    url: null,
  };
}

/** The checkout.session.completed event (or `type`) for a Checkout of the onboarding's field. */
export function checkoutCompleted(options: CheckoutCompletedOptions): Record<string, unknown> {
  return stripeEvent(options.type ?? 'checkout.session.completed', checkoutSession(options), {
    account: options.account,
    ...(options.eventId !== undefined && { id: options.eventId }),
  });
}
