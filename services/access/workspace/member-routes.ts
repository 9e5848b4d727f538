import { teamSummary } from '../../../projections/teams/queries.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { teamDecider } from '../team-decider.ts';
import { MEMBER_ROLES, type MemberRole } from '../contract/roles.ts';
import { teamStreamId } from '../team-events.ts';
import { accountDecider } from './account-decider.ts';
import { accountStreamId } from './account-events.ts';
import { openAccount, signedInView } from './account-routes.ts';
import { hashPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import { may } from './permissions.ts';
import { newInvitationLink } from './invitation-link.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { inWorkspaceTransaction, lastPosition } from './workspace-commands.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { forbidden, invalidBody } from './workspace-errors.ts';
import { logMailWithoutSmtp, queueAccountMail } from './workspace-mail.ts';
import { hashSecret, TOKEN_PARAM } from './workspace-secrets.ts';
import { abuseLimits } from './abuse-limits.ts';
import { requireVerifiedTeam } from './email-verification.ts';
import { invitationMail } from './invitation-mail.ts';
import { deleteMemberSessions, insertSession, setSessionCookie, signedIn } from './workspace-session.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';

/** An invitation link works for 7 days, once. */

const tag = { tags: ['workspace'] };
export const memberSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  created_at: z.string(),
});
const memberParams = z.object({ member_id: z.string().uuid() });
const accountExists = () =>
  codedError(
    409,
    'account_exists',
    'This email already has a workspace account (one account per email): use another address.',
  );
const invitationInvalid = () =>
  codedError(
    400,
    'invitation_invalid',
    'This invitation has expired or was already used: ask for a new one.',
  );

/** Members and roles: list, invite, accept, change a role, remove (or leave). */
export async function memberRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  async function hasAccount(email: string): Promise<boolean> {
    const { rowCount } = await context.pool.query('select 1 from member_credentials where email = $1', [
      email,
    ]);
    return (rowCount ?? 0) > 0;
  }

  app.get(
    '/members',
    {
      config: { workspace: { action: 'members.list' } },
      schema: {
        ...tag,
        summary: 'Current members of the team',
        response: { 200: z.object({ data: z.array(memberSchema) }) },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const { rows } = await context.pool.query<{
        id: string;
        name: string;
        email: string;
        role: MemberRole;
        created_at: Date;
      }>(
        `select id, name, email, role, created_at from team_members
         where team_id = $1 and removed_at is null order by created_at, id`,
        [session.teamId],
      );
      return { data: rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })) };
    },
  );

  app.post(
    '/invitations',
    {
      config: { workspace: { action: 'members.invite' } },
      schema: {
        ...tag,
        summary: 'Invite someone by email (owners); the emailed link works once, for 7 days',
        body: z.object({
          email: z.string().trim().toLowerCase().pipe(z.string().email().max(320)),
          name: z.string().trim().min(1).max(200),
          role: z.enum(MEMBER_ROLES),
        }),
        response: {
          201: z.object({
            invitation: z.object({
              id: z.string().uuid(),
              email: z.string(),
              name: z.string(),
              role: z.enum(MEMBER_ROLES),
              expires_at: z.string(),
            }),
          }),
        },
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      const { email, name, role } = request.body;
      // An address with an account elsewhere is invited like any other (no 409): the answer
      // says nothing about other teams' accounts; accepting tells the address's owner.
      await requireVerifiedTeam(context.pool, session.teamId);
      await abuseLimits(context).reserve([
        ['invitation_team', session.teamId],
        ['invitation_address', email],
        ['invitation_ip', request.ip],
        ['invite_mail_team', session.teamId],
      ]);
      const invitationId = randomUUID();
      const now = context.clock.now();
      const { tokenHash, expiresAt, link, teamName } = await newInvitationLink(context, session.teamId, now);
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: teamStreamId(session.teamId),
          decider: teamDecider,
          metadata: memberMetadata(request, session.memberId),
          command: {
            type: 'InviteMember',
            data: { invitation_id: invitationId, email, role },
            metadata: { now },
          },
          writeRows: async (_decided, tx) => {
            await tx.query(
              `insert into workspace_tokens (token_hash, purpose, team_id, email, name, role, expires_at, created_at,
                 invitation_id, invited_by, last_sent_at)
               values ($1, 'invitation', $2, $3, $4, $5, $6, $7, $8, $9, $7)`,
              [tokenHash, session.teamId, email, name, role, expiresAt, now, invitationId, session.memberId],
            );
            await queueAccountMail(tx, {
              teamId: session.teamId,
              to: email,
              ...invitationMail({ inviterName: session.name, teamName, role, link }),
              at: now,
            });
          },
        }),
      );
      logMailWithoutSmtp(request.log, context.settings.SMTP_URL, 'invitation email', {
        teamId: session.teamId,
        link,
      });
      return reply.status(201).send({
        invitation: { id: invitationId, email, name, role, expires_at: expiresAt.toISOString() },
      });
    },
  );

  app.post(
    '/invitations/:token/accept',
    {
      config: { ...SECRET_ANSWER, workspace: { public: true } },
      schema: {
        ...tag,
        summary: 'Accept an invitation: become a member with a password, signed in',
        params: z.object({ token: z.string().max(64).describe(TOKEN_PARAM) }),
        body: z.object({ name: z.string().trim().min(1).max(200), password: z.string().max(1024) }),
        response: { 201: signedInView },
      },
    },
    async (request, reply) => {
      const now = context.clock.now();
      const tokenHash = hashSecret(request.params.token);
      const { rows } = await context.pool.query<{ team_id: string; email: string; role: MemberRole }>(
        `select team_id, email, role from workspace_tokens
         where token_hash = $1 and purpose = 'invitation' and used_at is null and expires_at > $2`,
        [tokenHash, now],
      );
      const invitation = rows[0];
      if (!invitation) throw invitationInvalid();
      const problem = passwordProblem(request.body.password, invitation.email);
      if (problem) throw invalidBody(problem);
      if (await hasAccount(invitation.email)) throw accountExists();
      const passwordHash = await hashPassword(request.body.password);
      const memberId = randomUUID();
      const metadata = memberMetadata(request, memberId);
      let session = { id: '', csrfToken: '' };
      const position = await inWorkspaceTransaction(context, async (decide) => {
        const added = await decide({
          streamId: teamStreamId(invitation.team_id),
          decider: teamDecider,
          metadata,
          command: {
            type: 'AddMember',
            data: {
              member_id: memberId,
              name: request.body.name,
              email: invitation.email,
              role: invitation.role,
            },
            metadata: { now },
          },
          writeRows: async (_decided, tx) => {
            const used = await tx.query(
              'update workspace_tokens set used_at = $2 where token_hash = $1 and used_at is null',
              [tokenHash, now],
            );
            if (used.rowCount !== 1) throw invitationInvalid();
          },
        });
        const opened = await openAccount(decide, metadata, {
          memberId,
          teamId: invitation.team_id,
          email: invitation.email,
          passwordHash,
          now,
        });
        const signIn = await decide({
          streamId: accountStreamId(memberId),
          decider: accountDecider,
          metadata,
          command: { type: 'SignIn', data: { second_factor: false }, metadata: { now } },
          writeRows: async (_decided, tx) => {
            session = await insertSession(tx, { memberId, teamId: invitation.team_id, now });
          },
        });
        return lastPosition(added, opened, signIn);
      }).catch((error: unknown) => {
        throw (error as { code?: string })?.code === '23505' ? accountExists() : error;
      });
      await awaitReadModels(context, position);
      setSessionCookie(reply, request, context.settings.PUBLIC_URL, session.id);
      const team = (await teamSummary(context.pool, invitation.team_id))!;
      return reply.status(201).send({
        member: { id: memberId, name: request.body.name, email: invitation.email, role: invitation.role },
        team,
        role: invitation.role,
        csrf_token: session.csrfToken,
      });
    },
  );

  app.patch(
    '/members/:member_id',
    {
      config: { workspace: { action: 'members.change_role' } },
      schema: {
        ...tag,
        summary: "Change a member's role (owners); the last owner cannot be demoted (409 last_owner)",
        params: memberParams,
        body: z.object({ role: z.enum(MEMBER_ROLES) }),
        response: {
          200: z.object({ member: z.object({ id: z.string().uuid(), role: z.enum(MEMBER_ROLES) }) }),
        },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const changed = await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: teamStreamId(session.teamId),
          decider: teamDecider,
          metadata: memberMetadata(request, session.memberId),
          command: {
            type: 'ChangeMemberRole',
            data: { member_id: request.params.member_id, role: request.body.role },
            metadata: { now: context.clock.now() },
          },
        }),
      );
      await awaitReadModels(context, changed.position);
      return { member: { id: request.params.member_id, role: request.body.role } };
    },
  );

  app.delete(
    '/members/:member_id',
    {
      schema: {
        ...tag,
        summary:
          'Remove a member (owners) or leave the team (oneself); the last owner stays (409 last_owner)',
        params: memberParams,
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const memberId = request.params.member_id;
      if (memberId !== session.memberId && !may(session.role, 'members.remove')) throw forbidden();
      const removed = await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: teamStreamId(session.teamId),
          decider: teamDecider,
          metadata: memberMetadata(request, session.memberId),
          command: {
            type: 'RemoveMember',
            data: { member_id: memberId, keep_an_owner: true },
            metadata: { now: context.clock.now() },
          },
          // The removed member's sessions end with the removal; their email is free again.
          writeRows: async (_decided, tx) => {
            await deleteMemberSessions(tx, memberId);
            await tx.query('delete from member_credentials where member_id = $1', [memberId]);
          },
        }),
      );
      await awaitReadModels(context, removed.position);
      return { success: true as const };
    },
  );
}
