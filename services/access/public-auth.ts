import type { FastifyRequest } from 'fastify';
import type { Platform } from '../../shared/app-deps.ts';
import { apiKeyInactive, apiKeyRequired, apiKeyScopeDenied } from '../../shared/http/public-errors.ts';
import { apiKeyByHash } from '../../projections/api-keys/queries.ts';
import { hashApiKeySecret, isExpired } from './api-key-secret.ts';
import { noteKeyUse } from './api-key-usage.ts';
import { isPlan, type Plan } from './contract/plans.ts';
import type { RouteScope, Scope } from './contract/scopes.ts';

/**
 * Who calls the public API (`/api/v1`) and what a route may ask of the caller: the API key
 * check and the scope check, which the public face (services/app/apis/public.ts) runs in its
 * order on every request.
 */

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

/** The key of `Authorization: Bearer <key>`; undefined when no key is given. */
function bearerKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (!header) return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header);
  const key = match?.[1]?.trim();
  return key ? key : undefined;
}

export async function authenticate(
  context: Pick<Platform, 'readPool' | 'clock'> & Partial<Pick<Platform, 'pool'>>,
  request: FastifyRequest,
): Promise<Principal> {
  const secret = bearerKey(request);
  if (secret === undefined) throw apiKeyRequired();
  const key = await apiKeyByHash(context.readPool, hashApiKeySecret(secret));
  if (
    !key ||
    key.revoked_at !== null ||
    isExpired(key.expires_at, context.clock.now()) ||
    !isPlan(key.plan)
  ) {
    throw apiKeyInactive();
  }
  if (context.pool) noteKeyUse({ pool: context.pool, clock: context.clock }, key.id);
  return { teamId: key.team_id, apiKeyId: key.id, scopes: key.scopes as Scope[], plan: key.plan };
}

export function checkScope(request: FastifyRequest): void {
  const scope = request.routeOptions.config.scope;
  if (scope && !request.principal.scopes.includes(scope)) throw apiKeyScopeDenied(scope);
}

export function validationShape(request: FastifyRequest): 'text' | 'invalid_body' {
  const config = request.routeOptions.config;
  return config.validationError ?? (config.validateBeforeScope ? 'invalid_body' : 'text');
}
