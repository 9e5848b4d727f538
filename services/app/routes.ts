import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.ts';
import { operatorApi } from './apis/operator.ts';
import { portalApi } from './apis/portal.ts';
import { publicApi } from './apis/public.ts';
import { stripeWebhooksApi } from './apis/stripe-webhooks.ts';
import { trackRoutes } from '../../shared/http/route-registry.ts';
import { brandRoutes } from '../web/brand-routes.ts';
import { webRoutes } from '../web/web-routes.ts';
import { workspaceApi } from './apis/workspace.ts';

/**
 * Every route plugin of the service. Each feature adds its own line here; the plugins
 * carry their own prefixes (/api/v1, /admin/v1, /portal/v1, /workspace/v1, /webhooks for
 * Stripe's events); the client's form page
 * (/f/:token, /web/*) and team logos (/brand/:team_id/logo) are outside the APIs.
 */
export async function registerRoutes(app: FastifyInstance, context: ServiceContext) {
  trackRoutes(app); // first: records every route registered below (tests check OpenAPI and auth coverage)
  await app.register(publicApi, { prefix: '/api/v1', context });
  await app.register(operatorApi, { prefix: '/admin/v1', context });
  await app.register(portalApi, { prefix: '/portal/v1', context });
  await app.register(workspaceApi, { prefix: '/workspace/v1', context });
  await app.register(stripeWebhooksApi, { prefix: '/webhooks', context });
  await app.register(webRoutes);
  await app.register(brandRoutes, { context });
}

/**
 * A worker's routes (SERVICE_ROLE=worker) besides health and metrics: the operator API, for
 * what only the process running the background work can do (skip an event the Kafka relay is
 * stalled on, retry parked events, drain the work).
 */
export async function registerWorkerRoutes(app: FastifyInstance, context: ServiceContext) {
  trackRoutes(app);
  await app.register(operatorApi, { prefix: '/admin/v1', context });
}
