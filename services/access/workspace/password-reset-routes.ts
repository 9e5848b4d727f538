import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { inTransaction } from '../../../shared/db/pool.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { hashPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import { type SignInThrottle } from './sign-in-throttle.ts';
import { abuseLimits, answerNoSoonerThan } from './abuse-limits.ts';
import { RESET_ANSWER_MS, resetLinkRows } from './sign-up-answers.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { accountCommand } from './workspace-commands.ts';
import { invalidBody } from './workspace-errors.ts';
import { logMailWithoutSmtp, queueAccountMail } from './workspace-mail.ts';
import { hashSecret, newSecret, TOKEN_PARAM } from './workspace-secrets.ts';
import { deleteMemberSessions } from './workspace-session.ts';
import {
  RESET_LINK_SECONDS,
  email,
  password,
  success,
  credentialsByEmail,
  setPasswordHash,
} from './account-answers.ts';
import { deleteSignInLock, resetLinkAccount, useToken } from './accounts.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/** Password reset: a link by email, then a new password with it. */
export async function passwordResetRoutes(
  plain: FastifyInstance,
  { context, throttle }: { context: WorkspaceDeps; throttle: SignInThrottle },
) {
  const app = zodApp(plain);
  const publicUrl = context.settings.PUBLIC_URL;

  app.post(
    '/password-resets',
    {
      config: { workspace: { public: true } },
      schema: workspaceSchema(
        'workspaceRequestPasswordReset',
        'Email a one-time password reset link (always 202: no account enumeration)',
        { body: z.object({ email }) },
        { 202: z.object({ accepted: z.literal(true) }) },
      ),
    },
    async (request, reply) => {
      const started = performance.now();
      await abuseLimits(context).reserve([
        ['reset_ip', request.ip],
        ['reset_address', request.body.email],
      ]);
      const account = await credentialsByEmail(context.pool, request.body.email);
      if (account) {
        const token = newSecret();
        const now = context.clock.now();
        const link = `${publicUrl}/workspace/reset-password/${token}`;
        await inTransaction(context.pool, async (tx) => {
          // A new link ends the older ones of the account (resetLinkRows).
          await resetLinkRows(tx, account.member_id, {
            tokenHash: hashSecret(token),
            teamId: account.team_id,
            expiresAt: new Date(now.getTime() + RESET_LINK_SECONDS * 1000),
            now,
          });
          await queueAccountMail(tx, {
            teamId: account.team_id,
            to: account.email,
            subject: 'Reset your password',
            text: `Someone asked to reset the password of your workspace account.\n\nSet a new password here (the link works once, for 30 minutes):\n${link}\n\nIf it was not you, ignore this email.`,
            at: now,
          });
        });
        logMailWithoutSmtp(request.log, context.settings.SMTP_URL, 'password reset email', {
          teamId: account.team_id,
          link,
        });
      }
      await answerNoSoonerThan(started, RESET_ANSWER_MS);
      return reply.status(202).send({ accepted: true as const });
    },
  );

  app.post(
    '/password-resets/:token',
    {
      config: { workspace: { public: true } },
      schema: workspaceSchema(
        'workspaceResetPassword',
        'Set a new password with a reset link; every session of the account ends',
        {
          params: z.object({ token: z.string().max(64).describe(TOKEN_PARAM) }),
          body: z.object({ password }),
        },
        { 200: success },
      ),
    },
    async (request) => {
      const now = context.clock.now();
      const tokenHash = hashSecret(request.params.token);
      const found = await resetLinkAccount(context.pool, tokenHash, now);
      if (!found) {
        throw codedError(
          400,
          'reset_link_invalid',
          'This reset link has expired or was already used: ask for a new one.',
        );
      }
      const problem = passwordProblem(request.body.password, found.email);
      if (problem) throw invalidBody(problem);
      const passwordHash = await hashPassword(request.body.password);
      await accountCommand(context, request, found.member_id, {
        command: { type: 'ChangePassword', data: { reason: 'reset' }, metadata: { now } },
        writeRows: async (_decided, tx) => {
          if (!(await useToken(tx, tokenHash, now))) {
            throw codedError(
              400,
              'reset_link_invalid',
              'This reset link has expired or was already used: ask for a new one.',
            );
          }
          await setPasswordHash(tx, found.member_id, passwordHash, now);
          // A completed reset ends every other outstanding link of the account.
          await resetLinkRows(tx, found.member_id, null);
          await deleteSignInLock(tx, found.email);
          await deleteMemberSessions(tx, found.member_id);
        },
      });
      // The reset proves the account's owner: its wrong-password count ends with the lock.
      await throttle.forgetAccount(found.email);
      return { success: true as const };
    },
  );
}
