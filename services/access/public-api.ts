import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hashApiKeySecret, isExpired } from './api-key-secret.ts';
import type { RouteScope, Scope } from './contract/scopes.ts';
import {
  apiRateLimits,
  hasApiAccess,
  isPlan,
  PER_IP_RATE_LIMIT,
  RATE_WINDOW_SECONDS,
  type Plan,
} from './contract/plans.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { handleError } from '../../shared/http/error-handler.ts';
import { unstorableAsValidation } from '../../shared/http/input-guard.ts';
import {
  PER_IP_POLICY,
  PER_KEY_AND_IP_POLICY,
  PER_KEY_POLICY,
  rateLimitHeaders,
  recordQuota,
} from '../../shared/http/rate-limit-headers.ts';
import { RateLimiter, type RateLimitStore } from '../../shared/rate-limit/rate-limiter.ts';
import {
  apiKeyInactive,
  apiKeyPlanRequired,
  apiKeyRequired,
  apiKeyScopeDenied,
  rateLimited,
} from '../../shared/http/public-errors.ts';
import { publicRoutePlugins, type PublicRoutesDeps } from './public-routes.ts';

export type PublicApiDeps = Pick<Platform, 'settings' | 'clock' | 'readPool' | 'rateLimitStores'> &
  PublicRoutesDeps;

/** Who calls: the API key that authenticated the request and its team. */
export interface Principal {
  teamId: string;
  apiKeyId: string;
  scopes: Scope[];
  plan: Plan;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scope the route requires (client-onboarding-api.md, Authentication); none: any valid key. */
    scope?: RouteScope;
    /**
     * Validate body and query before the scope check (the onboarding endpoints: a
     * malformed request is 400 invalid_body before api_key_scope_denied).
     */
    validateBeforeScope?: boolean;
    /**
     * Body of a 400 for a failed schema validation: 'text' = `{ error: <the zod issue's
     * message> }`, 'invalid_body' = the full body with code invalid_body. Default:
     * 'invalid_body' with validateBeforeScope, else 'text'.
     */
    validationError?: 'text' | 'invalid_body';
  }
  interface FastifyRequest {
    /** Set on every /api/v1 route before its handler runs (not elsewhere). */
    principal: Principal;
  }
}

interface KeyRow {
  id: string;
  team_id: string;
  scopes: string[];
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  plan: string;
}

/** One statement, named: every request runs it, so PostgreSQL plans it once per connection. */
const KEY_BY_HASH = {
  name: 'public_api_key_by_hash',
  text: `select k.id, k.team_id, k.scopes, k.expires_at, k.revoked_at, t.plan
         from api_keys k join teams t on t.id = k.team_id
         where k.key_hash = $1`,
};

/** The key of `Authorization: Bearer <key>`; undefined when no key is given. */
function bearerKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (!header) return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header);
  const key = match?.[1]?.trim();
  return key ? key : undefined;
}

async function authenticate(
  context: Pick<Platform, 'readPool' | 'clock'>,
  request: FastifyRequest,
): Promise<Principal> {
  const secret = bearerKey(request);
  if (secret === undefined) throw apiKeyRequired();
  const { rows } = await context.readPool.query<KeyRow>({
    ...KEY_BY_HASH,
    values: [hashApiKeySecret(secret)],
  });
  const key = rows[0];
  if (
    !key ||
    key.revoked_at !== null ||
    isExpired(key.expires_at, context.clock.now()) ||
    !isPlan(key.plan)
  ) {
    throw apiKeyInactive();
  }
  return { teamId: key.team_id, apiKeyId: key.id, scopes: key.scopes as Scope[], plan: key.plan };
}

function checkScope(request: FastifyRequest): void {
  const scope = request.routeOptions.config.scope;
  if (scope && !request.principal.scopes.includes(scope)) throw apiKeyScopeDenied(scope);
}

function validationShape(request: FastifyRequest): 'text' | 'invalid_body' {
  const config = request.routeOptions.config;
  return config.validationError ?? (config.validateBeforeScope ? 'invalid_body' : 'text');
}

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
 * Route plugins are listed in ./public-routes.ts.
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
