import type { FastifyRequest } from 'fastify';
import type { Platform } from '../app-deps.ts';
import type { CommandMetadata } from '../commands/handle-command.ts';
import { codedError } from './api-error.ts';
import { coded } from './error-schemas.ts';
import { requestMetadata } from './request-metadata.ts';

/**
 * What every /workspace/v1 route may use: the request helpers of the workspace face. The face
 * itself (the session, CSRF and permission hooks) is composed in services/app/apis/workspace.ts
 * from the access feature's parts; a feature's workspace routes need only these.
 */

/** The platform parts the workspace routes use. */
export type WorkspaceDeps = Pick<
  Platform,
  | 'settings'
  | 'clock'
  | 'pool'
  | 'readPool'
  | 'eventStore'
  | 'projections'
  | 'logger'
  | 'vault'
  | 'rateLimitStores'
  | 'stripe'
>;

/** The signed-in member of a request (the session joined with the member's current row). */
export interface SignedInMember {
  idHash: string;
  csrfTokenHash: string;
  /** The session's CSRF token, derived from the cookie's id (GET /me answers it). */
  csrfToken: string;
  memberId: string;
  teamId: string;
  /** The member's role in the team (the access feature's MemberRole). */
  role: string;
  name: string;
  email: string;
  created_at: Date;
  last_seen_at: Date;
  reauthenticated_at: Date | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member on /workspace/v1 routes; null without a live session. */
    workspaceSession: SignedInMember | null;
  }
}

export const sessionRequired = () => codedError(401, 'session_required', 'Sign in to the workspace first.');

/** The signed-in member of a route that requires a session (the API's onRequest hook ensured it). */
export function signedIn(request: FastifyRequest): SignedInMember {
  if (!request.workspaceSession) throw sessionRequired();
  return request.workspaceSession;
}

/** A command's metadata from a workspace request: the acting member is the actor. */
export function memberMetadata(
  request: Pick<FastifyRequest, 'id'>,
  actorMemberId: string | null,
  idempotencyKey: string | null = null,
): CommandMetadata {
  return { ...requestMetadata(request, { idempotencyKey }), actor_member_id: actorMemberId };
}

/**
 * The refusals every workspace route may answer (the face's checks run before the route),
 * in the standard error body, for its schema's `response` map. Spread it first, then add
 * the route's own (its success and any more precise error text):
 * `response: { ...workspaceErrorResponses(), 200: ..., 404: coded('Client not found') }`.
 */
export function workspaceErrorResponses() {
  return {
    400: coded('Malformed request (code invalid_body; details.issues names each problem)'),
    401: coded('No live session (code session_required), or wrong credentials when signing in'),
    403: coded(
      'Refused: missing or wrong X-CSRF-Token (csrf_token_invalid), another site (cross_site_request), the role may not (forbidden), or a re-authentication is due (reauthentication_required)',
    ),
    404: coded('Not found in this team'),
    409: coded('Not in this state (for example last_owner, key_limit_reached)'),
    413: coded('Body too large (code payload_too_large)'),
    429: coded(
      'Too many attempts (sign_in_locked, sign_in_rate_limited) or requests (rate_limited); header Retry-After',
    ),
    500: coded('Server error; retryable'),
    503: coded('Service unavailable for a moment (code service_unavailable); retryable'),
  };
}
