import { setPasswordHash } from './account-answers.ts';
import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { hashPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import { recentlyReauthenticated } from './session-policy.ts';
import { resetLinkRows } from './sign-up-answers.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { accountCommand } from './workspace-commands.ts';
import { invalidBody, reauthenticationRequired } from './workspace-errors.ts';
import { deleteOtherSessions, signedIn } from './workspace-session.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/**
 * The signed-in member changes their password: after a re-authentication within 5 minutes
 * (POST /sessions/current/reauth, which is throttled like a sign-in), with the same rules
 * as every new password (./password-rules.ts: length, not the email, not a common one).
 * Every other session of the member ends, and so does any outstanding reset link.
 */
export async function passwordChangeRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);

  app.post(
    '/me/password',
    {
      schema: workspaceSchema(
        'workspaceChangePassword',
        'Change your password (re-authentication within 5 minutes); every other session of yours ends',
        { body: z.object({ password: z.string().max(1024) }) },
        { 200: z.object({ success: z.literal(true) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const now = context.clock.now();
      if (!recentlyReauthenticated(session, now)) throw reauthenticationRequired();
      const problem = passwordProblem(request.body.password, session.email);
      if (problem) throw invalidBody(problem);
      const passwordHash = await hashPassword(request.body.password);
      await accountCommand(context, request, session.memberId, {
        command: { type: 'ChangePassword', data: { reason: 'change' }, metadata: { now } },
        writeRows: async (_decided, tx) => {
          await setPasswordHash(tx, session.memberId, passwordHash, now);
          await resetLinkRows(tx, session.memberId, null);
          await deleteOtherSessions(tx, session.memberId, session.idHash);
        },
      });
      return { success: true as const };
    },
  );
}
