/**
 * The payments feature as other code may use it: Stripe's side of payments, the signed
 * webhook endpoint and what each Stripe event records. The payment's life is in the
 * onboarding stream (services/onboardings), the team's connected account in access.
 */

// POST /webhooks/stripe
export {
  SIGNATURE_TOLERANCE_SECONDS,
  STRIPE_EVENT_BODY_LIMIT,
  stripeWebhookRoutes,
  type StripeWebhookDeps,
} from './stripe-webhook-routes.ts';
export { handleStripeEvent, STRIPE_EVENT_TYPES } from './handle-stripe-event.ts';
