import type { FastifyInstance } from 'fastify';
import { stripeWebhookRoutes, type StripeWebhookDeps } from '../../payments/index.ts';

/**
 * Stripe's webhook endpoint, registered with prefix /webhooks in services/app/routes.ts:
 * no API key, session or rate limit of another face (the Stripe-Signature header is the
 * credential, services/payments/stripe-webhook-routes.ts). Its only parser hands the JSON
 * body over as the raw bytes Stripe signed; any other content type is 415.
 */
export async function stripeWebhooksApi(app: FastifyInstance, { context }: { context: StripeWebhookDeps }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
  await app.register(stripeWebhookRoutes, { context });
}
