import { z } from 'zod';
import type { ZodApp } from '../../../shared/http/zod-app.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import { MEMBER_ROLES } from '../contract/roles.ts';
import { invitationPage } from './invitations.ts';
import { hashSecret, TOKEN_PARAM } from './workspace-secrets.ts';

/**
 * GET /invitations/:token/details (public): what the invitation page names before anyone accepts —
 * the team, who invited, the invited address and role. The link's 64-hex token is the only
 * key (as for accepting); an expired, used or unknown link is 400 invitation_invalid.
 */
export function invitationPageRoute(app: ZodApp, context: WorkspaceDeps) {
  app.get(
    '/invitations/:token/details',
    {
      config: { ...SECRET_ANSWER, workspace: { public: true } },
      schema: workspaceSchema(
        'workspaceReadInvitation',
        'The team, inviter, address and role of an invitation link (before accepting it)',
        { params: z.object({ token: z.string().max(64).describe(TOKEN_PARAM) }) },
        {
          200: z.object({
            invitation: z.object({
              team_name: z.string(),
              invited_by: z.string().nullable().describe("the inviter's name; null once they left"),
              email: z.string(),
              role: z.enum(MEMBER_ROLES),
              expires_at: z.string(),
            }),
          }),
        },
      ),
    },
    async (request) => {
      const row = await invitationPage(context.pool, hashSecret(request.params.token), context.clock.now());
      if (!row)
        throw codedError(
          400,
          'invitation_invalid',
          'This invitation has expired or was already used: ask for a new one.',
        );
      return {
        invitation: {
          team_name: row.team_name,
          invited_by: row.invited_by_name,
          email: row.email,
          role: row.role,
          expires_at: row.expires_at.toISOString(),
        },
      };
    },
  );
}
