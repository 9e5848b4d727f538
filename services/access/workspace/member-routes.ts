import { currentMembers } from '../../../projections/teams/queries.ts';
import { deleteCredentials } from './accounts.ts';
import { acceptInvitationRoute, inviteMemberRoute } from './member-invite-routes.ts';
import { invitationPageRoute } from './invitation-page-route.ts';
import type { FastifyInstance } from 'fastify';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { MEMBER_ROLES } from '../contract/roles.ts';
import { may } from './permissions.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { teamCommand } from './workspace-commands.ts';
import { forbidden } from './workspace-errors.ts';
import { deleteMemberSessions, signedIn } from './workspace-session.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

export const memberSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  created_at: z.string(),
});
const memberParams = z.object({ member_id: z.string().uuid() });

/** Members and roles: list, invite, accept, change a role, remove (or leave). */
export async function memberRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  // Registered in the OpenAPI document's order.
  listMembersRoute(app, context);
  inviteMemberRoute(app, context);
  invitationPageRoute(app, context);
  acceptInvitationRoute(app, context);
  changeRoleRoute(app, context);
  removeMemberRoute(app, context);
}

function listMembersRoute(app: ZodApp, context: WorkspaceDeps) {
  app.get(
    '/members',
    {
      config: { workspace: { action: 'members.list' } },
      schema: workspaceSchema(
        'workspaceListMembers',
        'Current members of the team',
        {},
        { 200: z.object({ data: z.array(memberSchema) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const rows = await currentMembers(context.pool, session.teamId);
      return { data: rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })) };
    },
  );
}

function changeRoleRoute(app: ZodApp, context: WorkspaceDeps) {
  app.patch(
    '/members/:member_id',
    {
      config: { workspace: { action: 'members.change_role' } },
      schema: workspaceSchema(
        'workspaceChangeMemberRole',
        "Change a member's role (owners); the last owner cannot be demoted (409 last_owner)",
        { params: memberParams, body: z.object({ role: z.enum(MEMBER_ROLES) }) },
        {
          200: z.object({ member: z.object({ id: z.string().uuid(), role: z.enum(MEMBER_ROLES) }) }),
        },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const changed = await teamCommand(context, request, session, {
        command: {
          type: 'ChangeMemberRole',
          data: { member_id: request.params.member_id, role: request.body.role },
          metadata: { now: context.clock.now() },
        },
      });
      await awaitReadModels(context, changed.position);
      return { member: { id: request.params.member_id, role: request.body.role } };
    },
  );
}

function removeMemberRoute(app: ZodApp, context: WorkspaceDeps) {
  app.delete(
    '/members/:member_id',
    {
      schema: workspaceSchema(
        'workspaceRemoveMember',
        'Remove a member (owners) or leave the team (oneself); the last owner stays (409 last_owner)',
        { params: memberParams },
        { 200: z.object({ success: z.literal(true) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const memberId = request.params.member_id;
      if (memberId !== session.memberId && !may(session.role, 'members.remove')) throw forbidden();
      const removed = await teamCommand(context, request, session, {
        command: {
          type: 'RemoveMember',
          data: { member_id: memberId, keep_an_owner: true },
          metadata: { now: context.clock.now() },
        },
        // The removed member's sessions end with the removal; their email is free again.
        writeRows: async (_decided, tx) => {
          await deleteMemberSessions(tx, memberId);
          await deleteCredentials(tx, memberId);
        },
      });
      await awaitReadModels(context, removed.position);
      return { success: true as const };
    },
  );
}
