import type { FastifyInstance } from 'fastify';
import { clientsRoutes, type ClientsRouteDeps } from '../clients/clients-routes.ts';
import { eventsRoutes, type EventsRouteDeps } from '../events/events-routes.ts';
import {
  hookSubscriptionsRoutes,
  type HookSubscriptionsRouteDeps,
} from '../hooks/hook-subscriptions-routes.ts';
import { meRoutes, type MeRouteDeps } from './me-routes.ts';
import { onboardingsRoutes, type OnboardingsRouteDeps } from '../onboardings/onboardings-routes.ts';
import { responsesRoutes, type ResponsesRouteDeps } from '../onboardings/responses-routes.ts';
import { templatesRoutes, type TemplatesRouteDeps } from '../templates/templates-routes.ts';

/**
 * Route plugins of the public API. To add routes, write a plugin
 * `async (app, { context }) => { ... }` with paths relative to /api/v1 (e.g. '/clients'),
 * `context` typed as the platform parts it uses (`Pick<Platform, ...>` of shared/app-deps.ts),
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
export type PublicRoutePlugin = (
  app: FastifyInstance,
  options: { context: PublicRoutesDeps },
) => Promise<void>;

/** The platform parts the public routes use together: what each plugin below names. */
export type PublicRoutesDeps = MeRouteDeps &
  ClientsRouteDeps &
  TemplatesRouteDeps &
  EventsRouteDeps &
  HookSubscriptionsRouteDeps &
  OnboardingsRouteDeps &
  ResponsesRouteDeps;

export const publicRoutePlugins: PublicRoutePlugin[] = [
  meRoutes,
  clientsRoutes,
  templatesRoutes,
  eventsRoutes,
  hookSubscriptionsRoutes,
  onboardingsRoutes,
  responsesRoutes,
];
