import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { teamDecider } from '../team-decider.ts';
import { teamStreamId, type TeamSettings } from '../team-events.ts';
import { hashPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import { abuseLimits, answerNoSoonerThan } from './abuse-limits.ts';
import { requireEmailVerification } from './email-verification.ts';
import { SIGN_UP_ACCEPTED, SIGN_UP_ANSWER_MS, signUpAccepted, warnExistingOwner } from './sign-up-answers.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { inWorkspaceTransaction, lastPosition } from './workspace-commands.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { invalidBody } from './workspace-errors.ts';
import { logMailWithoutSmtp } from './workspace-mail.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import {
  SELF_SERVE_PLAN,
  email,
  password,
  isUniqueViolation,
  credentialsByEmail,
  openAccount,
} from './account-answers.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/** POST /sign-up: a new team and its owner, answered alike whether or not the address has an account. */
export async function signUpRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  const publicUrl = context.settings.PUBLIC_URL;

  app.post(
    '/sign-up',
    {
      config: { ...SECRET_ANSWER, workspace: { public: true } },
      schema: workspaceSchema(
        'workspaceSignUp',
        'Create a team and its owner; 202 "check your email" whether or not the address has an account (sign in after, verify the address to send)',
        {
          body: z.object({
            team_name: z.string().trim().min(1).max(200),
            name: z.string().trim().min(1).max(200),
            email,
            password,
          }),
        },
        { 202: signUpAccepted },
      ),
    },
    async (request, reply) => {
      const started = performance.now();
      const body = request.body;
      const problem = passwordProblem(body.password, body.email);
      if (problem) throw invalidBody(problem);
      await abuseLimits(context).reserve([
        ['sign_up_ip', request.ip],
        ['sign_up_address', body.email],
      ]);
      // Hashed whatever happens next, so an existing address takes as long as a new one.
      const passwordHash = await hashPassword(body.password);
      if (await credentialsByEmail(context.pool, body.email)) {
        await warnExistingOwner(context, body.email);
        await answerNoSoonerThan(started, SIGN_UP_ANSWER_MS);
        return reply.status(202).send(SIGN_UP_ACCEPTED);
      }
      const teamId = randomUUID();
      const memberId = randomUUID();
      const now = context.clock.now();
      const metadata = memberMetadata(request, memberId);
      const settings: TeamSettings = {
        name: body.team_name,
        plan: SELF_SERVE_PLAN,
        timezone: 'UTC',
        locale: 'en-US',
        date_format: 'MM/DD/YYYY',
        email_sender_name: null,
        sending_paused: false,
        payments_connected: false,
        monthly_onboarding_limit: null,
        unpaid: false,
        new_recipient_cap: null,
      };
      let verificationUrl = '';
      const outcome = await inWorkspaceTransaction(context, async (decide) => {
        const team = await decide({
          streamId: teamStreamId(teamId),
          decider: teamDecider,
          metadata,
          command: { type: 'CreateTeam', data: { team_id: teamId, settings }, metadata: { now } },
        });
        const member = await decide({
          streamId: teamStreamId(teamId),
          decider: teamDecider,
          metadata,
          command: {
            type: 'AddMember',
            data: { member_id: memberId, name: body.name, email: body.email, role: 'owner' },
            metadata: { now },
          },
        });
        const account = await openAccount(decide, metadata, {
          memberId,
          teamId,
          email: body.email,
          passwordHash,
          now,
        });
        const verification = await requireEmailVerification(decide, metadata, {
          memberId,
          teamId,
          email: body.email,
          now,
          publicUrl,
        });
        verificationUrl = verification.url;
        return lastPosition(team, member, account, verification.outcome);
      }).catch(async (error: unknown) => {
        // The same address signed up at the same moment: answered as an existing one.
        if (!isUniqueViolation(error)) throw error;
        await warnExistingOwner(context, body.email);
        return undefined;
      });
      if (outcome !== undefined) {
        await awaitReadModels(context, outcome);
        logMailWithoutSmtp(request.log, context.settings.SMTP_URL, 'verification email', {
          teamId,
          link: verificationUrl,
        });
      }
      await answerNoSoonerThan(started, SIGN_UP_ANSWER_MS);
      return reply.status(202).send(SIGN_UP_ACCEPTED);
    },
  );
}
