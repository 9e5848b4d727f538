import { z } from 'zod';
import type { PoolClient } from '../../../shared/db/pool.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { queueAccountMail } from './workspace-mail.ts';

/**
 * Answers that say nothing about whether an account exists
 * (docs/decisions/0006-self-serve-abuse-limits.md): a sign-up answers 202 "check your
 * email" for a new address and for one that has an account (whose owner is told by email
 * instead), and a reset request answers 202 either way. Both answer no sooner than a floor
 * above the work of either path, so their time does not tell either.
 */
export const SIGN_UP_ANSWER_MS = 1000;
export const RESET_ANSWER_MS = 250;

export const signUpAccepted = z.object({
  accepted: z.literal(true),
  next: z.literal('verify_email').describe('check your email: follow the link to verify, then sign in'),
});
export const SIGN_UP_ACCEPTED = { accepted: true as const, next: 'verify_email' as const };

/**
 * Someone signed up with an address that has an account: its owner is told, with the way
 * back in; nothing changes in the account. The limit per address bounds these mails.
 */
export async function warnExistingOwner(
  context: Pick<WorkspaceDeps, 'pool' | 'clock' | 'settings'>,
  email: string,
) {
  const { rows } = await context.pool.query<{ team_id: string }>(
    'select team_id from member_credentials where email = $1',
    [email],
  );
  const teamId = rows[0]?.team_id;
  if (!teamId) return;
  const base = context.settings.PUBLIC_URL;
  await queueAccountMail(context.pool, {
    teamId,
    to: email,
    subject: 'Someone tried to sign up with your email address',
    text: `Someone tried to create a new workspace account with this email address, which already has one. Nothing changed in your account.\n\nTo sign in: ${base}/workspace/sign-in\nIf you forgot your password: ${base}/workspace/forgot-password\n\nIf it was not you, ignore this email.`,
    at: context.clock.now(),
  });
}

/**
 * The reset links of a member in table workspace_tokens: every outstanding one ends (is
 * deleted), then `link`, when given, is the one that works. A new request so ends the older
 * links, and a completed reset (no new link) ends all of them.
 */
export async function resetLinkRows(
  tx: Pick<PoolClient, 'query'>,
  memberId: string,
  link: { tokenHash: string; teamId: string; expiresAt: Date; now: Date } | null,
): Promise<void> {
  // Two requests at once queue here, so the later one ends the earlier one's link.
  await tx.query('select 1 from member_credentials where member_id = $1 for update', [memberId]);
  await tx.query(
    `delete from workspace_tokens where member_id = $1 and purpose = 'password_reset' and used_at is null`,
    [memberId],
  );
  if (!link) return;
  await tx.query(
    `insert into workspace_tokens (token_hash, purpose, team_id, member_id, expires_at, created_at)
     values ($1, 'password_reset', $2, $3, $4, $5)`,
    [link.tokenHash, link.teamId, memberId, link.expiresAt, link.now],
  );
}
