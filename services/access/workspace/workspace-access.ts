import { memberLocaleRoutes } from './member-locale-routes.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { sessionRequired } from '../../../shared/http/workspace-request.ts';
import { accountRoutes } from './account-routes.ts';
import { workspaceApiKeyRoutes } from './api-key-routes.ts';
import { auditRoutes } from './audit-routes.ts';
import { stripeConnectRoutes } from './stripe-connect-routes.ts';
import { emailVerificationRoutes } from './email-verification-routes.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { memberRoutes } from './member-routes.ts';
import { passwordChangeRoutes } from './password-change-routes.ts';
import { may, REAUTHENTICATED_ACTIONS, type WorkspaceAction } from './permissions.ts';
import { recoveryCodeRoutes } from './recovery-codes.ts';
import { recentlyReauthenticated } from './session-policy.ts';
import { FAILURE_WINDOW_SECONDS, SignInThrottle, SLOW_DOWN_SECONDS } from './sign-in-throttle.ts';
import {
  crossSiteRefused,
  csrfTokenInvalid,
  forbidden,
  reauthenticationRequired,
} from './workspace-errors.ts';
import { matchesHash } from './workspace-secrets.ts';
import { findSession, SESSION_COOKIE } from './workspace-session.ts';

/**
 * Who may use a /workspace/v1 route: the session, CSRF and permission check that the
 * workspace face (services/app/apis/workspace.ts) runs on every request, and the access
 * feature's own workspace routes.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A /workspace/v1 route's access: `public` routes need no session (sign-up, sign-in,
     * password resets, accepting an invitation); every other route needs one, and `action`
     * names the permission it checks (./permissions.ts).
     */
    workspace?: { public?: boolean; action?: WorkspaceAction };
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A request without a session (sign-up, sign-in) comes from this service's own pages. */
function sameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const own = new Set([new URL(publicUrl).origin, `${request.protocol}://${request.host}`]);
  return own.has(origin);
}

/**
 * The workspace's access check, an onRequest hook, in order:
 * 1. the session (401 session_required, except on public routes);
 * 2. CSRF: a non-GET request with a session carries X-CSRF-Token equal to its session's
 *    token (403 csrf_token_invalid); one without a session must not come from another site
 *    (Origin and Sec-Fetch-Site, when sent; 403 cross_site_request);
 * 3. the route's permission (403 forbidden), then a re-authentication within 5 minutes
 *    for key creation, rotation and revocation (403 reauthentication_required);
 * all before the body is validated, so a refused request learns nothing and changes nothing.
 */
export function workspaceAccessCheck(context: WorkspaceDeps): (request: FastifyRequest) => Promise<void> {
  return async (request: FastifyRequest): Promise<void> => {
    const access = request.routeOptions.config.workspace ?? {};
    const id = request.cookies[SESSION_COOKIE];
    const session = id ? await findSession(context.pool, id, context.clock.now()) : undefined;
    request.workspaceSession = session ?? null;
    if (!SAFE_METHODS.has(request.method)) {
      if (session) {
        const token = request.headers['x-csrf-token'];
        if (typeof token !== 'string' || !matchesHash(token, session.csrfTokenHash)) throw csrfTokenInvalid();
      } else if (!sameOrigin(request, context.settings.PUBLIC_URL)) {
        throw crossSiteRefused();
      }
    }
    if (access.public) return;
    if (!session) throw sessionRequired();
    if (access.action) {
      if (!may(session.role, access.action)) throw forbidden();
      if (
        REAUTHENTICATED_ACTIONS.has(access.action) &&
        !recentlyReauthenticated(session, context.clock.now())
      ) {
        throw reauthenticationRequired();
      }
    }
  };
}

/**
 * The access feature's workspace routes: account, members, invitations, recovery codes,
 * password change, email verification, API keys, audit, the team's Stripe account (team settings are registered on
 * their own, after the onboardings, as the document lists them).
 */
export async function accessWorkspaceRoutes(app: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const throttle = new SignInThrottle(
    context.clock,
    context.rateLimitStores.store('signin_failures', FAILURE_WINDOW_SECONDS, { failClosed: true }),
    context.rateLimitStores.store('signin_pace', SLOW_DOWN_SECONDS, { failClosed: true }),
  );
  await app.register(accountRoutes, { context, throttle });
  await app.register(memberRoutes, { context });
  await app.register(memberLocaleRoutes, { context });
  await app.register(invitationRoutes, { context });
  await app.register(recoveryCodeRoutes, { context });
  await app.register(passwordChangeRoutes, { context });
  await app.register(emailVerificationRoutes, { context });
  await app.register(workspaceApiKeyRoutes, { context });
  await app.register(auditRoutes, { context });
  await app.register(stripeConnectRoutes, { context });
}
