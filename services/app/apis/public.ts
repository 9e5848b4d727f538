import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Platform } from '../../../shared/app-deps.ts';
import { handleError } from '../../../shared/http/error-handler.ts';
import { unstorableAsValidation } from '../../../shared/http/input-guard.ts';
import {
  PER_IP_POLICY,
  PER_KEY_AND_IP_POLICY,
  PER_KEY_POLICY,
  rateLimitHeaders,
  recordQuota,
} from '../../../shared/http/rate-limit-headers.ts';
import { RateLimiter, type RateLimitStore } from '../../../shared/rate-limit/rate-limiter.ts';
import { apiKeyPlanRequired, rateLimited } from '../../../shared/http/public-errors.ts';
import {
  apiRateLimits,
  hasApiAccess,
  PER_IP_RATE_LIMIT,
  RATE_WINDOW_SECONDS,
} from '../../access/contract/plans.ts';
import {
  authenticate,
  checkScope,
  meRoutes,
  validationShape,
  type MeRouteDeps,
  type Principal,
} from '../../access/index.ts';
import { clientsRoutes, type ClientsRouteDeps } from '../../clients/index.ts';
import { eventsRoutes, type EventsRouteDeps } from '../../events/index.ts';
import { hookSubscriptionsRoutes, type HookSubscriptionsRouteDeps } from '../../hooks/index.ts';
import {
  onboardingsRoutes,
  responsesRoutes,
  type OnboardingsRouteDeps,
  type ResponsesRouteDeps,
} from '../../onboardings/index.ts';
import { templatesRoutes, type TemplatesRouteDeps } from '../../templates/index.ts';

/**
 * Route plugins of the public API. To add routes, write a plugin
 * `async (app, { context }) => { ... }` with paths relative to /api/v1 (e.g. '/clients'),
 * `context` typed as the platform parts it uses (`Pick<Platform, ...>` of shared/app-deps.ts),
 * and append it to `publicRoutePlugins` below: the public API plugin (below)
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
 * (shared/http/public-errors.ts) so /openapi.json lists it with its errors; a test checks that
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

export type PublicApiDeps = Pick<Platform, 'settings' | 'clock' | 'readPool' | 'rateLimitStores'> &
  PublicRoutesDeps;

/**
 * The public API (`/api/v1`). Every request passes, in this order:
 * 1. the per-IP rate limit (100 per minute, before the key);
 * 2. the key: 401 api_key_required (no key), 401 api_key_inactive (unknown, revoked or
 *    expired by the service clock);
 * 3. the plan: 403 api_key_plan_required without API access;
 * 4. the per-key and per-key-and-IP rate limits (200 and 100 per minute; Business 1,000
 *    and 500);
 * 5. the route's scope: 403 api_key_scope_denied; before validation (preValidation), or
 *    after it (preHandler) when the route sets `validateBeforeScope`.
 * Route plugins are listed in `publicRoutePlugins` above; the key and scope checks are the
 * access feature's (services/access/public-auth.ts).
 */
export async function publicApi(
  app: FastifyInstance,
  { context, rateLimitStore }: { context: PublicApiDeps; rateLimitStore?: RateLimitStore },
) {
  const limiter = new RateLimiter(
    rateLimitStore ?? context.rateLimitStores.store('api', RATE_WINDOW_SECONDS, { throughput: true }),
    context.clock,
    RATE_WINDOW_SECONDS,
  );
  const limitsOn = context.settings.RATE_LIMITS;

  /** Counts the request against each [policy, counter key, limit]; 429 when any is over. */
  async function enforce(request: FastifyRequest, checks: [policy: string, key: string, limit: number][]) {
    const decisions = await Promise.all(checks.map(([, key, limit]) => limiter.consume(key, limit)));
    decisions.forEach((decision, index) => {
      const [policy, , limit] = checks[index]!;
      recordQuota(request, {
        policy,
        limit,
        windowSeconds: RATE_WINDOW_SECONDS,
        count: decision.count,
        resetSeconds: decision.retryAfterSeconds,
      });
    });
    const refused = decisions.filter((decision) => !decision.allowed);
    if (refused.length === 0) return;
    request.omitRequestId = true;
    throw rateLimited(Math.max(...refused.map((decision) => decision.retryAfterSeconds)));
  }

  app.decorateRequest('principal', null as unknown as Principal);
  rateLimitHeaders(app);

  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    // A decider's refusal of an unstorable value answers like the route's own validation.
    const error = (unstorableAsValidation(thrown) as FastifyError | undefined) ?? thrown;
    if (error.validation && validationShape(request) === 'text') {
      return reply.status(400).send({ error: error.validation[0]?.message ?? 'Invalid request' });
    }
    return handleError(error, request, reply);
  });

  app.addHook('onRequest', async (request) => {
    if (limitsOn) await enforce(request, [[PER_IP_POLICY, `ip:${request.ip}`, PER_IP_RATE_LIMIT]]);
    const principal = await authenticate(context, request);
    if (!hasApiAccess(principal.plan)) throw apiKeyPlanRequired();
    if (limitsOn) {
      const limits = apiRateLimits(principal.plan);
      await enforce(request, [
        [PER_KEY_POLICY, `key:${principal.apiKeyId}`, limits.perKey],
        [PER_KEY_AND_IP_POLICY, `key_ip:${principal.apiKeyId}:${request.ip}`, limits.perKeyAndIp],
      ]);
    }
    request.principal = principal;
  });

  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.config.validateBeforeScope) checkScope(request);
  });

  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.validateBeforeScope) checkScope(request);
  });

  for (const plugin of publicRoutePlugins) await app.register(plugin, { context });
}
