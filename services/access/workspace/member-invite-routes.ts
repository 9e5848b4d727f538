import { teamSummary } from '../../../projections/teams/queries.ts';
import { hasAccount, useToken } from './accounts.ts';
import { insertInvitation, openInvitation } from './invitations.ts';
import { randomUUID } from 'node:crypto';
import { type ZodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { teamDecider } from '../team-decider.ts';
import { MEMBER_ROLES } from '../contract/roles.ts';
import { teamStreamId } from '../team-events.ts';
import { accountDecider } from './account-decider.ts';
import { accountStreamId } from './account-events.ts';
import { openAccount, signedInView } from './account-routes.ts';
import { hashPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import { invitationSending } from './invitation-link.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { inWorkspaceTransaction, lastPosition, teamCommand } from './workspace-commands.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { invalidBody } from './workspace-errors.ts';
import { hashSecret, TOKEN_PARAM } from './workspace-secrets.ts';
import { insertSession, setSessionCookie, signedIn } from './workspace-session.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

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

/** POST /invitations: an owner invites someone by email; the link works for 7 days, once. */
export function inviteMemberRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/invitations',
    {
      config: { workspace: { action: 'members.invite' } },
      schema: workspaceSchema(
        'workspaceInviteMember',
        'Invite someone by email (owners); the emailed link works once, for 7 days',
        {
          body: z.object({
            email: z.string().trim().toLowerCase().pipe(z.string().email().max(320)),
            name: z.string().trim().min(1).max(200),
            role: z.enum(MEMBER_ROLES),
          }),
        },
        {
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
      ),
    },
    async (request, reply) => {
      const session = signedIn(request);
      const { email, name, role } = request.body;
      // An address with an account elsewhere is invited like any other (no 409): the answer
      // says nothing about other teams' accounts; accepting tells the address's owner.
      const sending = await invitationSending(context, request, session, { email, role, firstSend: true });
      const { now, tokenHash, expiresAt } = sending;
      const invitationId = randomUUID();
      await teamCommand(context, request, session, {
        command: {
          type: 'InviteMember',
          data: { invitation_id: invitationId, email, role },
          metadata: { now },
        },
        writeRows: async (_decided, tx) => {
          await insertInvitation(tx, {
            tokenHash,
            teamId: session.teamId,
            email,
            name,
            role,
            expiresAt,
            now,
            invitationId,
            invitedBy: session.memberId,
          });
          await sending.queueMail(tx);
        },
      });
      sending.logWithoutSmtp();
      return reply.status(201).send({
        invitation: { id: invitationId, email, name, role, expires_at: expiresAt.toISOString() },
      });
    },
  );
}

/** POST /invitations/:token/accept: the invited person becomes a member, signed in. */
export function acceptInvitationRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/invitations/:token/accept',
    {
      config: { ...SECRET_ANSWER, workspace: { public: true } },
      schema: workspaceSchema(
        'workspaceAcceptInvitation',
        'Accept an invitation: become a member with a password, signed in',
        {
          params: z.object({ token: z.string().max(64).describe(TOKEN_PARAM) }),
          body: z.object({ name: z.string().trim().min(1).max(200), password: z.string().max(1024) }),
        },
        { 201: signedInView },
      ),
    },
    async (request, reply) => {
      const now = context.clock.now();
      const tokenHash = hashSecret(request.params.token);
      const invitation = await openInvitation(context.pool, tokenHash, now);
      if (!invitation) throw invitationInvalid();
      const problem = passwordProblem(request.body.password, invitation.email);
      if (problem) throw invalidBody(problem);
      if (await hasAccount(context.pool, invitation.email)) throw accountExists();
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
            if (!(await useToken(tx, tokenHash, now))) throw invitationInvalid();
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
        member: {
          id: memberId,
          name: request.body.name,
          email: invitation.email,
          role: invitation.role,
          locale: null,
        },
        team,
        role: invitation.role,
        csrf_token: session.csrfToken,
      });
    },
  );
}
