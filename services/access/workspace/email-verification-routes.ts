import type { FastifyInstance } from 'fastify';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { codedError } from '../../../shared/http/api-error.ts';
import { abuseLimits } from './abuse-limits.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { accountCommand } from './workspace-commands.ts';
import { logMailWithoutSmtp } from './workspace-mail.ts';
import { hashSecret, newSecret, TOKEN_PARAM } from './workspace-secrets.ts';
import { signedIn } from './workspace-session.ts';
import {
  liveVerificationToken,
  pendingVerificationOf,
  teamEmailVerified,
  useVerificationToken,
  verificationInvalid,
  verificationUrl,
  writeVerificationLink,
} from './email-verification.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/*
 * The routes of a self-serve owner's email verification; the verification's rows and
 * mail are ./email-verification.ts.
 */

/** What the verification routes share. */
function emailVerificationKit(context: WorkspaceDeps) {
  return { context, publicUrl: context.settings.PUBLIC_URL, limits: abuseLimits(context) };
}

type EmailVerificationKit = ReturnType<typeof emailVerificationKit>;

/** GET /email-verification */
function verificationStateRoute(app: ZodApp, kit: EmailVerificationKit) {
  const { context } = kit;
  app.get(
    '/email-verification',
    {
      schema: workspaceSchema(
        'workspaceGetEmailVerification',
        'Whether the team may send: its self-serve owner verified their email address',
        {},
        {
          200: z.object({
            team_verified: z.boolean().describe('false: the team sends nothing until its owner verifies'),
            pending_for_me: z.boolean().describe('true: the signed-in member is the owner who must verify'),
          }),
        },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      return {
        team_verified: await teamEmailVerified(context.pool, session.teamId),
        pending_for_me: (await pendingVerificationOf(context.pool, session.memberId)) !== undefined,
      };
    },
  );
}

/** POST /email-verification/resend */
function resendVerificationRoute(app: ZodApp, kit: EmailVerificationKit) {
  const { context, publicUrl, limits } = kit;
  app.post(
    '/email-verification/resend',
    {
      schema: workspaceSchema(
        'workspaceResendEmailVerification',
        'Email a new verification link to the signed-in owner (older links stop working)',
        {},
        { 202: z.object({ accepted: z.literal(true) }) },
      ),
    },
    async (request, reply) => {
      const session = signedIn(request);
      if (!(await pendingVerificationOf(context.pool, session.memberId))) {
        throw codedError(409, 'email_already_verified', 'Your email address is already verified');
      }
      await limits.reserve([
        ['verification_member', session.memberId],
        ['verification_ip', request.ip],
      ]);
      const token = newSecret();
      const url = verificationUrl(publicUrl, token);
      const now = context.clock.now();
      await accountCommand(context, request, session.memberId, {
        command: { type: 'SendEmailVerification', data: {}, metadata: { now } },
        writeRows: (_decided, tx) =>
          writeVerificationLink(tx, {
            memberId: session.memberId,
            teamId: session.teamId,
            email: session.email,
            token,
            url,
            now,
          }),
      });
      logMailWithoutSmtp(request.log, context.settings.SMTP_URL, 'verification email', {
        teamId: session.teamId,
        link: url,
      });
      return reply.status(202).send({ accepted: true as const });
    },
  );
}

/** POST /email-verification/:token */
function verifyEmailRoute(app: ZodApp, kit: EmailVerificationKit) {
  const { context } = kit;
  app.post(
    '/email-verification/:token',
    {
      config: { workspace: { public: true } },
      schema: workspaceSchema(
        'workspaceVerifyEmail',
        'Verify the email address with the emailed link: the team may send from now on',
        { params: z.object({ token: z.string().max(64).describe(TOKEN_PARAM) }) },
        { 200: z.object({ verified: z.literal(true) }) },
      ),
    },
    async (request) => {
      const now = context.clock.now();
      const tokenHash = hashSecret(request.params.token);
      const found = await liveVerificationToken(context.pool, tokenHash, now);
      if (!found) throw verificationInvalid();
      await accountCommand(context, request, found.member_id, {
        command: { type: 'VerifyEmail', data: {}, metadata: { now } },
        writeRows: async (_decided, tx) => {
          const used = { tokenHash, memberId: found.member_id, teamId: found.team_id, now };
          if (!(await useVerificationToken(tx, used))) throw verificationInvalid();
        },
      }).catch((error: unknown) => {
        throw (error as { options?: { code?: string } })?.options?.code === 'email_already_verified'
          ? verificationInvalid()
          : error;
      });
      return { verified: true as const };
    },
  );
}

/** The signed-in member's verification, a resend, and following the emailed link. */
export async function emailVerificationRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  const app = zodApp(plain);
  const kit = emailVerificationKit(context);
  verificationStateRoute(app, kit);
  resendVerificationRoute(app, kit);
  verifyEmailRoute(app, kit);
}
