import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import type { FastifyInstance } from 'fastify';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { codedError } from '../../../shared/http/api-error.ts';
import { MEMBER_ROLES } from '../contract/roles.ts';
import { invitationSending } from './invitation-link.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { teamCommand } from './workspace-commands.ts';
import { signedIn } from './workspace-session.ts';
import {
  deleteInvitation,
  pendingInvitation,
  pendingInvitations,
  replaceInvitationLink,
  type PendingInvitationRow,
} from './invitations.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

export const pendingInvitationSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(MEMBER_ROLES),
  invited_by: z.object({ id: z.string().uuid(), name: z.string() }).nullable(),
  created_at: z.string(),
  last_sent_at: z.string(),
  sent_count: z.number().int(),
  expires_at: z.string(),
  expired: z.boolean().describe('the link no longer works; a resend sends a new one'),
});
const invitationParams = z.object({ invitation_id: z.string().uuid() });

const invitationNotFound = () =>
  codedError(404, 'invitation_not_found', 'No pending invitation with this id in your team.');

function view(row: PendingInvitationRow, now: Date) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    invited_by:
      row.invited_by_id && row.invited_by_name ? { id: row.invited_by_id, name: row.invited_by_name } : null,
    created_at: row.created_at.toISOString(),
    last_sent_at: (row.last_sent_at ?? row.created_at).toISOString(),
    sent_count: row.sent_count,
    expires_at: row.expires_at.toISOString(),
    expired: row.expires_at.getTime() <= now.getTime(),
  };
}

/**
 * Pending invitations (owners and admins): list them, send one again, revoke one.
 * A resend emails a new link through the same mail and limits as the invitation itself
 * (verified team, invitation limits per address, network and team) and the older link stops
 * working; it runs 7 days from the resend. A revocation deletes the link: it no longer
 * accepts. Both are team commands (team.invitation_resent, team.invitation_revoked).
 */
export async function invitationRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  // Registered in the OpenAPI document's order.
  listInvitationsRoute(app, context);
  resendInvitationRoute(app, context);
  revokeInvitationRoute(app, context);
}

/** The team's pending invitation; 404 invitation_not_found for any other id. */
async function pending(context: WorkspaceDeps, teamId: string, invitationId: string) {
  const invitation = await pendingInvitation(context.pool, teamId, invitationId);
  if (!invitation) throw invitationNotFound();
  return invitation;
}

function listInvitationsRoute(app: ZodApp, context: WorkspaceDeps) {
  app.get(
    '/invitations',
    {
      config: { workspace: { action: 'members.invitations' } },
      schema: workspaceSchema(
        'workspaceListInvitations',
        'Pending invitations of the team, newest first (owners and admins)',
        {},
        { 200: z.object({ data: z.array(pendingInvitationSchema) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const rows = await pendingInvitations(context.pool, session.teamId);
      const now = context.clock.now();
      return { data: rows.map((row) => view(row, now)) };
    },
  );
}

function resendInvitationRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/invitations/:invitation_id/resend',
    {
      config: { workspace: { action: 'members.invitations' } },
      schema: workspaceSchema(
        'workspaceResendInvitation',
        'Email a pending invitation again with a new link (the older link stops working; 7 days from now)',
        { params: invitationParams },
        { 200: z.object({ invitation: pendingInvitationSchema }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const invitation = await pending(context, session.teamId, request.params.invitation_id);
      // The invitation's own mail path: the same checks and limits as sending it first.
      const sending = await invitationSending(context, request, session, { ...invitation, firstSend: false });
      const { now, tokenHash, expiresAt } = sending;
      const resent = await teamCommand(context, request, session, {
        command: { type: 'ResendInvitation', data: { invitation_id: invitation.id }, metadata: { now } },
        writeRows: async (_decided, tx) => {
          const replaced = await replaceInvitationLink(tx, {
            invitationId: invitation.id,
            teamId: session.teamId,
            tokenHash,
            expiresAt,
            now,
          });
          if (!replaced) throw invitationNotFound();
          await sending.queueMail(tx);
        },
      });
      sending.logWithoutSmtp();
      // Read your writes: the team's activity shows the resend once the answer arrives.
      await awaitReadModels(context, resent.position);
      return { invitation: view(await pending(context, session.teamId, invitation.id), now) };
    },
  );
}

function revokeInvitationRoute(app: ZodApp, context: WorkspaceDeps) {
  app.delete(
    '/invitations/:invitation_id',
    {
      config: { workspace: { action: 'members.invitations' } },
      schema: workspaceSchema(
        'workspaceRevokeInvitation',
        'Revoke a pending invitation: its link no longer accepts (owners and admins)',
        { params: invitationParams },
        { 200: z.object({ success: z.literal(true) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const invitation = await pending(context, session.teamId, request.params.invitation_id);
      const revoked = await teamCommand(context, request, session, {
        command: {
          type: 'RevokeInvitation',
          data: { invitation_id: invitation.id },
          metadata: { now: context.clock.now() },
        },
        writeRows: async (_decided, tx) => {
          if (!(await deleteInvitation(tx, session.teamId, invitation.id))) throw invitationNotFound();
        },
      });
      // Read your writes: the team's activity shows the revocation once the answer arrives.
      await awaitReadModels(context, revoked.position);
      return { success: true as const };
    },
  );
}
