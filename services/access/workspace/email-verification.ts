import type { PoolClient } from '../../../shared/db/pool.ts';
import { ApiError, codedError } from '../../../shared/http/api-error.ts';
import { accountDecider } from './account-decider.ts';
import { accountStreamId } from './account-events.ts';
import { inWorkspaceTransaction } from './workspace-commands.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { queueAccountMail } from './workspace-mail.ts';
import { hashSecret, newSecret } from './workspace-secrets.ts';

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

export const verificationInvalid = () =>
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

/** The signed-in member's own pending verification (they are the owner who must verify). */
export async function pendingVerificationOf(
  db: Queryable,
  memberId: string,
): Promise<{ team_id: string } | undefined> {
  const { rows } = await db.query<{ team_id: string }>(
    'select team_id from team_email_verifications where member_id = $1 and verified_at is null',
    [memberId],
  );
  return rows[0];
}

/** The member and team of a verification link that still works at `now`. */
export async function liveVerificationToken(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<{ member_id: string; team_id: string } | undefined> {
  const { rows } = await db.query<{ member_id: string; team_id: string }>(
    `select member_id, team_id from email_verification_tokens where token_hash = $1 and expires_at > $2`,
    [tokenHash, now],
  );
  return rows[0];
}

/**
 * In the VerifyEmail command's transaction: uses the link (false when a concurrent request
 * used it first), ends the member's other links and marks the team verified.
 */
export async function useVerificationToken(
  tx: Queryable,
  used: { tokenHash: string; memberId: string; teamId: string; now: Date },
): Promise<boolean> {
  const deleted = await tx.query('delete from email_verification_tokens where token_hash = $1', [
    used.tokenHash,
  ]);
  if (deleted.rowCount !== 1) return false;
  await tx.query('delete from email_verification_tokens where member_id = $1', [used.memberId]);
  await tx.query(
    'update team_email_verifications set verified_at = $2 where team_id = $1 and verified_at is null',
    [used.teamId, used.now],
  );
  return true;
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

export const verificationUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/workspace/verify-email/${token}`;
