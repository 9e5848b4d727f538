import Stripe from 'stripe';
import type { Settings } from '../config/settings.ts';

/**
 * The one Stripe client of the service, over the official `stripe` package: its own
 * secret key reaches the teams' connected accounts (Stripe Connect, `stripeAccount` per
 * call). STRIPE_API_URL points it at another server (stripe-mock in tests). Null when
 * STRIPE_SECRET_KEY is unset: payments are then not collected online.
 */
export function createStripeClient(
  settings: Pick<Settings, 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL'>,
): Stripe | null {
  if (settings.STRIPE_SECRET_KEY === undefined) return null;
  const base = settings.STRIPE_API_URL === undefined ? undefined : new URL(settings.STRIPE_API_URL);
  return new Stripe(settings.STRIPE_SECRET_KEY, {
    // A request waits at most this long; the package retries network failures with the
    // same idempotency key, so a retried creation never makes a second object.
    timeout: 10_000,
    maxNetworkRetries: 2,
    telemetry: false,
    appInfo: { name: 'client-onboarding-service' },
    ...(base && {
      host: base.hostname,
      port: base.port === '' ? (base.protocol === 'https:' ? 443 : 80) : Number(base.port),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

/** Stripe webhook signatures are checked with the package's own scheme, which needs no key. */
export const stripeWebhooks = (): Stripe['webhooks'] => Stripe.webhooks;

export type { Stripe };
