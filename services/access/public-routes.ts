import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../app/context.ts';
import { clientsRoutes } from '../clients/clients-routes.ts';
import { eventsRoutes } from '../events/events-routes.ts';
import { hookSubscriptionsRoutes } from '../hooks/hook-subscriptions-routes.ts';
import { meRoutes } from './me-routes.ts';
import { onboardingsRoutes } from '../onboardings/onboardings-routes.ts';
import { responsesRoutes } from '../onboardings/responses-routes.ts';
import { templatesRoutes } from '../templates/templates-routes.ts';

/**
 * Route plugins of the public API. To add routes, write a plugin
 * `async (app, { context }) => { ... }` with paths relative to /api/v1 (e.g. '/clients')
 * and append it to `publicRoutePlugins` below: the public API plugin (./public-api.ts)
 * registers it under /api/v1 behind the per-IP rate limit, the key check (401
 * api_key_required / api_key_inactive), the plan check (403 api_key_plan_required) and
 * the per-key rate limits. Declare the scope a route needs with
 * `config: { scope: 'clients:read' }` (no scope = any valid key, as GET /me); it is
 * checked before validation, unless the route sets `validateBeforeScope: true` (the
 * onboarding endpoints: 400 invalid_body comes before 403 api_key_scope_denied). A failed
 * schema validation answers 400 `{ error: <message of the first zod issue> }`, so put the
 * spec's text in your zod messages (e.g. `offsetPaginationQuery`, `pagePaginationQuery`,
 * `eventsLimitQuery` of shared/http/pagination.ts); with validateBeforeScope (or
 * `validationError: 'invalid_body'`) it answers the full invalid_body body. In handlers,
 * `request.principal` is `{ teamId, apiKeyId, scopes, plan }`: scope every query by
 * `teamId`. Throw `textError(404, 'Client not found')` for text-only errors and
 * `codedError(status, code, text)` for full ones (shared/http/api-error.ts). Give every
 * route a zod schema with `response: { 200: ..., ...publicErrorResponses({...}), 404: ... }`
 * (./public-errors.ts) so /openapi.json lists it with its errors; a test checks that
 * every /api/v1 route is in the document and answers 401 without a key.
 */
export type PublicRoutePlugin = (app: FastifyInstance, options: { context: ServiceContext }) => Promise<void>;

export const publicRoutePlugins: PublicRoutePlugin[] = [
  meRoutes,
  clientsRoutes,
  templatesRoutes,
  eventsRoutes,
  hookSubscriptionsRoutes,
  onboardingsRoutes,
  responsesRoutes,
];
