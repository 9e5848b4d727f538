import cookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { handleError } from '../../../shared/http/error-handler.ts';
import { takeTeamReadTurn, TeamReadShare } from '../../../shared/http/team-read-share.ts';
import { accessWorkspaceRoutes, teamSettingsRoutes, workspaceAccessCheck } from '../../access/index.ts';
import { workspaceRuleRoutes } from '../../automation/index.ts';
import { clientImportRoutes, workspaceClientRoutes } from '../../clients/index.ts';
import { workspaceDeliveryRoutes, workspaceHookRoutes } from '../../hooks/index.ts';
import {
  batchApproveRoutes,
  bulkSendRoutes,
  clientHubRoutes,
  workspaceLinkRoutes,
  workspaceDocumentRoutes,
  workspaceOnboardingRoutes,
  workspacePaymentRoutes,
  workspaceReviewRoutes,
  workspaceTimelineRoutes,
  workspaceSignatureRoutes,
} from '../../onboardings/index.ts';
import { homeRoutes } from '../../home/index.ts';
import { notificationRoutes } from '../../notifications/index.ts';
import { workspaceTemplateRoutes } from '../../templates/index.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The security the document gives a route (schemes of services/app/openapi-polish.ts):
 * none on public routes, else the session cookie, with X-CSRF-Token when it changes state.
 */
function documentedSecurity(isPublic: boolean, methods: string[]): Record<string, string[]>[] {
  if (isPublic) return [{}];
  const changes = methods.some((method) => !SAFE_METHODS.has(method.toUpperCase()));
  return [changes ? { workspaceSession: [], csrfToken: [] } : { workspaceSession: [] }];
}

/**
 * The workspace API (`/workspace/v1`): a cookie session, then on every request the access
 * check (services/access/workspace/workspace-access.ts: session, CSRF, permission,
 * re-authentication) and each team's share of the reads (shared/http/team-read-share.ts),
 * all before the body is validated, then the routes of every feature.
 */
export async function workspaceApi(app: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  await app.register(cookie);
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ??= {});
    schema.security = documentedSecurity(route.config?.workspace?.public === true, [route.method].flat());
  });
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

  app.addHook('onRequest', workspaceAccessCheck(context));
  // After the access check, which names the team: one team's reads take at most its share.
  app.addHook('onRequest', takeTeamReadTurn(new TeamReadShare()));

  await app.register(accessWorkspaceRoutes, { context });
  await app.register(workspaceHookRoutes, { context });
  await app.register(workspaceDeliveryRoutes, { context });
  await app.register(workspaceRuleRoutes, { context });
  await app.register(workspaceTemplateRoutes, { context });
  await app.register(workspaceClientRoutes, { context });
  await app.register(clientImportRoutes, { context });
  await app.register(bulkSendRoutes, { context });
  await app.register(clientHubRoutes, { context });
  await app.register(workspaceOnboardingRoutes, { context });
  await app.register(teamSettingsRoutes, { context });
  await app.register(workspaceReviewRoutes, { context });
  await app.register(batchApproveRoutes, { context });
  await app.register(workspaceTimelineRoutes, { context });
  await app.register(workspaceSignatureRoutes, { context });
  await app.register(workspacePaymentRoutes, { context });
  await app.register(workspaceDocumentRoutes, { context });
  await app.register(workspaceLinkRoutes, { context });
  await app.register(notificationRoutes, { context });
  await app.register(homeRoutes, { context });
}
