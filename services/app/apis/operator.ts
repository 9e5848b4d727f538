import type { FastifyError, FastifyInstance } from 'fastify';
import { codedError } from '../../../shared/http/api-error.ts';
import { handleError } from '../../../shared/http/error-handler.ts';
import { parkedEventsRoutes } from '../../../shared/projections/parked-events-routes.ts';
import { RateLimiter } from '../../../shared/rate-limit/rate-limiter.ts';
import {
  ADMIN_TOKEN_GUESS_WINDOW_SECONDS,
  operatorApiKeyRoutes,
  operatorTeamRoutes,
  operatorTokenCheck,
} from '../../access/index.ts';
import { automationRulesRoutes } from '../../automation/index.ts';
import { clientErasureRoutes } from '../../clients/index.ts';
import { relaySkipRoutes } from '../../events/index.ts';
import { signedDeliveryRoutes } from '../../hooks/index.ts';
import { emailsRoutes } from '../../mail/index.ts';
import { operatorOnboardingRoutes } from '../../onboardings/index.ts';
import { operatorTemplateRoutes } from '../../templates/index.ts';
import { clockAndWorkRoutes } from '../clock-and-work-routes.ts';
import type { ServiceContext } from '../context.ts';

export type OperatorRoutePlugin = (
  app: FastifyInstance,
  options: { context: ServiceContext },
) => Promise<void>;

/**
 * Route plugins of the operator API (`/admin/v1`). To add operator routes, append your
 * plugin here; it then gets the prefix /admin/v1, the ADMIN_TOKEN check (404 for every
 * route while ADMIN_TOKEN is unset, 401 code admin_token_invalid for a missing or wrong
 * token, 429 admin_token_rate_limited after too many wrong ones) and validation errors as 400 invalid_body with `details.issues`. Give each route
 * a zod schema (tags: ['operator']) so it appears in /openapi.json.
 */
export const operatorRoutePlugins: OperatorRoutePlugin[] = [
  operatorTeamRoutes,
  operatorApiKeyRoutes,
  operatorTemplateRoutes,
  operatorOnboardingRoutes,
  clientErasureRoutes,
  emailsRoutes,
  clockAndWorkRoutes,
  automationRulesRoutes,
  parkedEventsRoutes,
  signedDeliveryRoutes,
  relaySkipRoutes,
];

/** The operator API; registered with prefix /admin/v1 in services/app/routes.ts. */
export async function operatorApi(app: FastifyInstance, { context }: { context: ServiceContext }) {
  // Guesses of ADMIN_TOKEN are counted per IP in Redis or PostgreSQL, never in memory alone.
  const guesses = new RateLimiter(
    context.rateLimitStores.store('admin_token', ADMIN_TOKEN_GUESS_WINDOW_SECONDS, { failClosed: true }),
    context.clock,
    ADMIN_TOKEN_GUESS_WINDOW_SECONDS,
  );
  app.addHook('onRequest', operatorTokenCheck(context.settings.ADMIN_TOKEN, guesses));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const issues = error.validation.map((issue) => ({
        path: `${error.validationContext ?? ''}${issue.instancePath}`,
        message: issue.message,
      }));
      return handleError(
        codedError(400, 'invalid_body', 'Invalid request body', { details: { issues } }) as never,
        request,
        reply,
      );
    }
    return handleError(error, request, reply);
  });
  for (const plugin of operatorRoutePlugins) await app.register(plugin, { context });
}
