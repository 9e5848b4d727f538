import cookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { handleError } from '../../../shared/http/error-handler.ts';
import { accountRoutes } from './account-routes.ts';
import { auditRoutes } from './audit-routes.ts';
import { teamSettingsRoutes } from './team-settings-routes.ts';
import { memberRoutes } from './member-routes.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { passwordChangeRoutes } from './password-change-routes.ts';
import { recoveryCodeRoutes } from './recovery-codes.ts';
import { emailVerificationRoutes } from './email-verification.ts';
import { may, REAUTHENTICATED_ACTIONS, type WorkspaceAction } from './permissions.ts';
import { recentlyReauthenticated } from './session-policy.ts';
import { FAILURE_WINDOW_SECONDS, SignInThrottle, SLOW_DOWN_SECONDS } from './sign-in-throttle.ts';
import { workspaceApiKeyRoutes } from './api-key-routes.ts';
import { workspaceDeliveryRoutes } from '../../hooks/workspace-delivery-routes.ts';
import { workspaceHookRoutes } from '../../hooks/workspace-hook-routes.ts';
import { workspaceRuleRoutes } from '../../automation/workspace-rule-routes.ts';
import { workspaceTemplateRoutes } from '../../templates/workspace-template-routes.ts';
import { workspaceClientRoutes } from '../../clients/workspace-client-routes.ts';
import { workspaceOnboardingRoutes } from '../../onboardings/workspace-onboarding-routes.ts';
import { workspaceReviewRoutes } from '../../onboardings/workspace-review-routes.ts';
import { workspaceTimelineRoutes } from '../../onboardings/workspace-timeline-routes.ts';
import {
  crossSiteRefused,
  csrfTokenInvalid,
  forbidden,
  reauthenticationRequired,
} from './workspace-errors.ts';
import { sessionRequired } from '../../../shared/http/workspace-request.ts';
import { matchesHash } from './workspace-secrets.ts';
import { findSession, SESSION_COOKIE } from './workspace-session.ts';

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
 * The workspace API (`/workspace/v1`): a cookie session, then on every request, in order:
 * 1. the session (401 session_required, except on public routes);
 * 2. CSRF: a non-GET request with a session carries X-CSRF-Token equal to its session's
 *    token (403 csrf_token_invalid); one without a session must not come from another site
 *    (Origin and Sec-Fetch-Site, when sent; 403 cross_site_request);
 * 3. the route's permission (403 forbidden), then a re-authentication within 5 minutes
 *    for key creation, rotation and revocation (403 reauthentication_required);
 * all before the body is validated, so a refused request learns nothing and changes nothing.
 */
/**
 * The refusals every workspace route may answer, in the standard error body; a route's own
 * response schemas (its success and any more precise error text) take precedence.
 */
const WORKSPACE_REFUSALS = {
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

/**
 * The security the document gives a route (schemes of services/app/openapi-polish.ts):
 * none on public routes, else the session cookie, with X-CSRF-Token when it changes state.
 */
function documentedSecurity(isPublic: boolean, methods: string[]): Record<string, string[]>[] {
  if (isPublic) return [{}];
  const changes = methods.some((method) => !SAFE_METHODS.has(method.toUpperCase()));
  return [changes ? { workspaceSession: [], csrfToken: [] } : { workspaceSession: [] }];
}

export async function workspaceApi(app: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  await app.register(cookie);
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ??= {});
    schema.response = { ...WORKSPACE_REFUSALS, ...((schema.response as object | undefined) ?? {}) };
    schema.security = documentedSecurity(route.config?.workspace?.public === true, [route.method].flat());
  });
  const throttle = new SignInThrottle(
    context.clock,
    context.rateLimitStores.store('signin_failures', FAILURE_WINDOW_SECONDS, { failClosed: true }),
    context.rateLimitStores.store('signin_pace', SLOW_DOWN_SECONDS, { failClosed: true }),
  );
  app.decorateRequest('workspaceSession', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const issues = error.validation.map((issue) => ({
        path: `${error.validationContext ?? ''}${issue.instancePath}`,
        message: issue.message,
      }));
      const first = issues[0]?.message ?? 'Invalid request body';
      return handleError(
        codedError(400, 'invalid_body', first, { details: { issues } }) as never,
        request,
        reply,
      );
    }
    return handleError(error, request, reply);
  });

  app.addHook('onRequest', async (request) => {
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
  });

  await app.register(accountRoutes, { context, throttle });
  await app.register(memberRoutes, { context });
  await app.register(invitationRoutes, { context });
  await app.register(recoveryCodeRoutes, { context });
  await app.register(passwordChangeRoutes, { context });
  await app.register(emailVerificationRoutes, { context });
  await app.register(workspaceApiKeyRoutes, { context });
  await app.register(auditRoutes, { context });
  await app.register(workspaceHookRoutes, { context });
  await app.register(workspaceDeliveryRoutes, { context });
  await app.register(workspaceRuleRoutes, { context });
  await app.register(workspaceTemplateRoutes, { context });
  await app.register(workspaceClientRoutes, { context });
  await app.register(workspaceOnboardingRoutes, { context });
  await app.register(teamSettingsRoutes, { context });
  await app.register(workspaceReviewRoutes, { context });
  await app.register(workspaceTimelineRoutes, { context });
}
