import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { accountCommand } from './workspace-commands.ts';
import { clearSessionCookie, deleteMemberSessions, deleteSession, signedIn } from './workspace-session.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import { teamOf, signedInView, success } from './account-answers.ts';
import { reauthenticateRoute, signInKit, signInRoute, type SignInKit } from './sign-in-routes.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import { memberLocale } from '../../../projections/teams/queries.ts';

/** Sign-in and out, the signed-in member, ending every session, re-authentication. */
export async function sessionRoutes(
  plain: FastifyInstance,
  { context, throttle }: { context: WorkspaceDeps; throttle: SignInThrottle },
) {
  const app = zodApp(plain);
  const kit = signInKit(context, throttle);
  // Registered in the OpenAPI document's order.
  signInRoute(app, kit);
  meRoute(app, kit);
  signOutRoute(app, kit);
  signOutEverywhereRoute(app, kit);
  reauthenticateRoute(app, kit);
}

function meRoute(app: ZodApp, { context }: SignInKit) {
  app.get(
    '/me',
    {
      config: SECRET_ANSWER,
      schema: workspaceSchema(
        'workspaceGetMe',
        'The signed-in member, their team and role, and the CSRF token',
        {},
        { 200: signedInView },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      return {
        member: {
          id: session.memberId,
          name: session.name,
          email: session.email,
          role: session.role,
          locale: await memberLocale(context.pool, session.memberId),
        },
        team: await teamOf(context.pool, session.teamId),
        role: session.role,
        csrf_token: session.csrfToken,
      };
    },
  );
}

function signOutRoute(app: ZodApp, { context }: SignInKit) {
  app.delete(
    '/sessions/current',
    {
      schema: workspaceSchema('workspaceSignOut', 'Sign out', {}, { 200: success }),
    },
    async (request, reply) => {
      const session = signedIn(request);
      await signOut(context, request, session.memberId, 'current', (tx) => deleteSession(tx, session.idHash));
      clearSessionCookie(reply, request, context.settings.PUBLIC_URL);
      return { success: true as const };
    },
  );
}

function signOutEverywhereRoute(app: ZodApp, { context }: SignInKit) {
  app.post(
    '/sessions/end-all',
    {
      schema: workspaceSchema(
        'workspaceSignOutEverywhere',
        'Sign out everywhere (every session of the member ends)',
        {},
        { 200: success },
      ),
    },
    async (request, reply) => {
      const session = signedIn(request);
      await signOut(context, request, session.memberId, 'everywhere', (tx) =>
        deleteMemberSessions(tx, session.memberId),
      );
      clearSessionCookie(reply, request, context.settings.PUBLIC_URL);
      return { success: true as const };
    },
  );
}

async function signOut(
  context: WorkspaceDeps,
  request: FastifyRequest,
  memberId: string,
  scope: 'current' | 'everywhere',
  rows: (tx: never) => Promise<void>,
) {
  await accountCommand(context, request, memberId, {
    command: { type: 'SignOut', data: { scope }, metadata: { now: context.clock.now() } },
    writeRows: (_decided, tx) => rows(tx as never),
  });
}
