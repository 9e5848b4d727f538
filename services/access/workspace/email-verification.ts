import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PoolClient } from '../../../shared/db/pool.ts';
import { ApiError, codedError } from '../../../shared/http/api-error.ts';
import { accountDecider } from './account-decider.ts';
import { accountStreamId } from './account-events.ts';
import { abuseLimits } from './abuse-limits.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { inWorkspaceTransaction } from './workspace-commands.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { logMailWithoutSmtp, queueAccountMail } from './workspace-mail.ts';
import { hashSecret, newSecret, TOKEN_PARAM } from './workspace-secrets.ts';
import { signedIn } from './workspace-session.ts';

/**
 * Email verification of a self-serve team's owner (docs/decisions/0006-self-serve-abuse-limits.md).
 * Sign-up records account.email_verification_sent and a row of team_email_verifications;
 * until the owner follows the emailed link (account.email_verified) the team sends no
 * onboarding, no invitation and no automation mail. Teams without a row (provisioned
 * through the operator API) count as verified.
 */

/** A verification link works for 24 hours, once; a newer link ends the older ones. */
export const VERIFICATION_LINK_SECONDS = 24 * 60 * 60;

type Queryable = Pick<PoolClient, 'query'>;

/** Whether the team may send: no owner of it is waiting to verify their address. */
export async function teamEmailVerified(db: Queryable, teamId: string): Promise<boolean> {
  const { rows } = await db.query<{ verified_at: Date | null }>(
    'select verified_at from team_email_verifications where team_id = $1',
    [teamId],
  );
  return !rows[0] || rows[0].verified_at !== null;
}

/** The workspace's refusal of a send by a team whose owner has not verified their address. */
export const emailUnverified = () =>
  codedError(
    403,
    'email_unverified',
    'Verify your email to send: follow the link we emailed you, or ask for a new one from the banner.',
  );

export async function requireVerifiedTeam(db: Queryable, teamId: string): Promise<void> {
  if (!(await teamEmailVerified(db, teamId))) throw emailUnverified();
}

/**
 * A send refused as sending_paused (the public API's code and text for a team that may not
 * send, client-onboarding-api.md check 5) is, in the workspace, explained as the missing
 * verification when that is the reason.
 */
export async function explainUnverified(db: Queryable, teamId: string, error: unknown): Promise<never> {
  const code = error instanceof ApiError ? error.options.code : (error as { code?: unknown })?.code;
  if (code === 'sending_paused' && !(await teamEmailVerified(db, teamId))) throw emailUnverified();
  throw error;
}

const verificationInvalid = () =>
  codedError(
    400,
    'verification_link_invalid',
    'This verification link has expired or was already used: sign in and ask for a new one.',
  );

/**
 * In the command's transaction: a new link for the member (their older links end) and its
 * mail. The subject is the service's own fixed words; nothing the signer typed is in it.
 */
export async function writeVerificationLink(
  tx: Queryable,
  link: { memberId: string; teamId: string; email: string; token: string; url: string; now: Date },
): Promise<void> {
  await tx.query('delete from email_verification_tokens where member_id = $1', [link.memberId]);
  await tx.query(
    `insert into email_verification_tokens (token_hash, member_id, team_id, expires_at, created_at)
     values ($1, $2, $3, $4, $5)`,
    [
      hashSecret(link.token),
      link.memberId,
      link.teamId,
      new Date(link.now.getTime() + VERIFICATION_LINK_SECONDS * 1000),
      link.now,
    ],
  );
  await queueAccountMail(tx, {
    teamId: link.teamId,
    to: link.email,
    subject: 'Verify your email address',
    text: `Someone created a workspace account with this email address.\n\nVerify the address here (the link works once, for 24 hours); until then the new team cannot send emails:\n${link.url}\n\nIf it was not you, ignore this email: nothing is sent from the account until the address is verified.`,
    at: link.now,
  });
}

type Decide = Parameters<Parameters<typeof inWorkspaceTransaction>[1]>[0];

/**
 * Sign-up's part: the team waits for its owner's verification (a row of
 * team_email_verifications) and the first link is emailed, with the event
 * account.email_verification_sent. Answers the outcome and the link (for a setup without SMTP).
 */
export async function requireEmailVerification(
  decide: Decide,
  metadata: ReturnType<typeof memberMetadata>,
  owner: { memberId: string; teamId: string; email: string; now: Date; publicUrl: string },
) {
  const token = newSecret();
  const url = verificationUrl(owner.publicUrl, token);
  const outcome = await decide({
    streamId: accountStreamId(owner.memberId),
    decider: accountDecider,
    metadata,
    command: { type: 'SendEmailVerification', data: {}, metadata: { now: owner.now } },
    writeRows: async (_decided, tx) => {
      await tx.query(
        `insert into team_email_verifications (team_id, member_id, required_at) values ($1, $2, $3)`,
        [owner.teamId, owner.memberId, owner.now],
      );
      await writeVerificationLink(tx, { ...owner, token, url });
    },
  });
  return { outcome, url };
}

const verificationUrl = (publicUrl: string, token: string) => `${publicUrl}/workspace/verify-email/${token}`;

const tag = { tags: ['workspace'] };

/** The signed-in member's verification, a resend, and following the emailed link. */
export async function emailVerificationRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const publicUrl = context.settings.PUBLIC_URL;
  const limits = abuseLimits(context);

  async function pendingOf(memberId: string): Promise<{ team_id: string } | undefined> {
    const { rows } = await context.pool.query<{ team_id: string }>(
      'select team_id from team_email_verifications where member_id = $1 and verified_at is null',
      [memberId],
    );
    return rows[0];
  }

  app.get(
    '/email-verification',
    {
      schema: {
        ...tag,
        summary: 'Whether the team may send: its self-serve owner verified their email address',
        response: {
          200: z.object({
            team_verified: z.boolean().describe('false: the team sends nothing until its owner verifies'),
            pending_for_me: z.boolean().describe('true: the signed-in member is the owner who must verify'),
          }),
        },
      },
    },
    async (request) => {
      const session = signedIn(request);
      return {
        team_verified: await teamEmailVerified(context.pool, session.teamId),
        pending_for_me: (await pendingOf(session.memberId)) !== undefined,
      };
    },
  );

  app.post(
    '/email-verification/resend',
    {
      schema: {
        ...tag,
        summary: 'Email a new verification link to the signed-in owner (older links stop working)',
        response: { 202: z.object({ accepted: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      if (!(await pendingOf(session.memberId))) {
        throw codedError(409, 'email_already_verified', 'Your email address is already verified');
      }
      await limits.reserve([
        ['verification_member', session.memberId],
        ['verification_ip', request.ip],
      ]);
      const token = newSecret();
      const url = verificationUrl(publicUrl, token);
      const now = context.clock.now();
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(session.memberId),
          decider: accountDecider,
          metadata: memberMetadata(request, session.memberId),
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
        }),
      );
      logMailWithoutSmtp(request.log, context.settings.SMTP_URL, 'verification email', {
        teamId: session.teamId,
        link: url,
      });
      return reply.status(202).send({ accepted: true as const });
    },
  );

  app.post(
    '/email-verification/:token',
    {
      config: { workspace: { public: true } },
      schema: {
        ...tag,
        summary: 'Verify the email address with the emailed link: the team may send from now on',
        params: z.object({ token: z.string().max(64).describe(TOKEN_PARAM) }),
        response: { 200: z.object({ verified: z.literal(true) }) },
      },
    },
    async (request) => {
      const now = context.clock.now();
      const tokenHash = hashSecret(request.params.token);
      const { rows } = await context.pool.query<{ member_id: string; team_id: string }>(
        `select member_id, team_id from email_verification_tokens where token_hash = $1 and expires_at > $2`,
        [tokenHash, now],
      );
      const found = rows[0];
      if (!found) throw verificationInvalid();
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(found.member_id),
          decider: accountDecider,
          metadata: memberMetadata(request, found.member_id),
          command: { type: 'VerifyEmail', data: {}, metadata: { now } },
          writeRows: async (_decided, tx) => {
            const used = await tx.query('delete from email_verification_tokens where token_hash = $1', [
              tokenHash,
            ]);
            if (used.rowCount !== 1) throw verificationInvalid();
            await tx.query('delete from email_verification_tokens where member_id = $1', [found.member_id]);
            await tx.query(
              'update team_email_verifications set verified_at = $2 where team_id = $1 and verified_at is null',
              [found.team_id, now],
            );
          },
        }),
      ).catch((error: unknown) => {
        throw (error as { options?: { code?: string } })?.options?.code === 'email_already_verified'
          ? verificationInvalid()
          : error;
      });
      return { verified: true as const };
    },
  );
}
