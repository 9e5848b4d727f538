import type { FastifyInstance } from 'fastify';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { passwordResetRoutes } from './password-reset-routes.ts';
import { sessionRoutes } from './session-routes.ts';
import { signUpRoutes } from './sign-up-routes.ts';
import { totpRoutes } from './totp-routes.ts';

export { openAccount, RESET_LINK_SECONDS, SELF_SERVE_PLAN, signedInView } from './account-answers.ts';

/**
 * The workspace account: sign-up, sign-in and out, the signed-in member, re-authentication,
 * two-factor, password reset. One file per part; registered in this order (the OpenAPI
 * document lists them so).
 */
export async function accountRoutes(
  app: FastifyInstance,
  options: { context: WorkspaceDeps; throttle: SignInThrottle },
) {
  await signUpRoutes(app, options);
  await sessionRoutes(app, options);
  await totpRoutes(app, options);
  await passwordResetRoutes(app, options);
}
