import { teamById } from '../../../projections/teams/queries.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
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
