import type { FastifyRequest } from 'fastify';
import { teamById } from '../../../projections/teams/queries.ts';
import type { PoolClient } from '../../../shared/db/pool.ts';
import type { SignedInMember, WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { abuseLimits } from './abuse-limits.ts';
import { requireVerifiedTeam } from './email-verification.ts';
import { invitationMail } from './invitation-mail.ts';
import { logMailWithoutSmtp, queueAccountMail } from './workspace-mail.ts';
import { hashSecret, newSecret } from './workspace-secrets.ts';

/** How long an invitation's emailed link works. */
export const INVITATION_SECONDS = 7 * 24 * 60 * 60;

/**
 * A new link for an invitation (sent first or again): the token's hash to store (the token
 * itself is only in the link), when it ends, the link the mail holds, and the team's name
 * the mail quotes.
 */
export async function newInvitationLink(
  context: Pick<WorkspaceDeps, 'pool' | 'settings'>,
  teamId: string,
  now: Date,
) {
  const token = newSecret();
  const teamName = (await teamById(context.pool, teamId))?.name;
  return {
    tokenHash: hashSecret(token),
    expiresAt: new Date(now.getTime() + INVITATION_SECONDS * 1000),
    link: `${context.settings.PUBLIC_URL}/workspace/invitations/${token}`,
    teamName,
  };
}

/**
 * Sending an invitation's link, first (`firstSend`, which also counts against the team's
 * invitation limit) or again: the team must be verified and the invitation limits per
 * address, network and team hold before anything is written; then a new link. The command
 * stores `tokenHash` and `expiresAt` and queues the mail in its transaction (`queueMail`);
 * after it, `logWithoutSmtp` writes the link to the log where no SMTP server sends it.
 */
export async function invitationSending(
  context: WorkspaceDeps,
  request: Pick<FastifyRequest, 'ip' | 'log'>,
  session: Pick<SignedInMember, 'teamId' | 'name'>,
  invite: { email: string; role: string; firstSend: boolean },
) {
  const { teamId } = session;
  await requireVerifiedTeam(context.pool, teamId);
  await abuseLimits(context).reserve([
    ...(invite.firstSend ? [['invitation_team', teamId] as const] : []),
    ['invitation_address', invite.email],
    ['invitation_ip', request.ip],
    ['invite_mail_team', teamId],
  ]);
  const now = context.clock.now();
  const { tokenHash, expiresAt, link, teamName } = await newInvitationLink(context, teamId, now);
  const mail = invitationMail({ inviterName: session.name, teamName, role: invite.role, link });
  return {
    now,
    tokenHash,
    expiresAt,
    queueMail: (tx: Pick<PoolClient, 'query'>) =>
      queueAccountMail(tx, { teamId, to: invite.email, ...mail, at: now }),
    logWithoutSmtp: () =>
      logMailWithoutSmtp(request.log, context.settings.SMTP_URL, 'invitation email', { teamId, link }),
  };
}
