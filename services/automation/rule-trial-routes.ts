import { z } from 'zod';
import type { ZodApp } from '../../shared/http/zod-app.ts';
import { ApiError, codedError } from '../../shared/http/api-error.ts';
import { signedIn, type WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import { inTransaction } from '../../shared/db/pool.ts';
import { queueMail } from '../../shared/mail/outbox.ts';
import { safePost } from '../../shared/net/safe-http.ts';
import { outboundOptions } from '../../shared/net/outbound.ts';
import { RateLimiter } from '../../shared/rate-limit/rate-limiter.ts';
import { currentMember, teamWithOwner } from '../../projections/teams/queries.ts';
import { AUTOMATION_TRIGGERS } from './automation-rule-events.ts';
import { actionSchema } from './automation-rules-routes.ts';
import { checkAction } from './automation-rules.ts';
import { checkPlaceholders } from './placeholder-check.ts';
import { renderSample, type Rendered } from './rule-trial.ts';

/*
 * The rule dialog's preview and test send (owners and admins; /workspace/v1), for the rule
 * as typed, saved or not:
 *
 *   POST /automation-rules/preview  { trigger, action } → { preview }  the action rendered for a sample onboarding
 *   POST /automation-rules/test     { trigger, action } → { sent }     Send email / Notify team member: the
 *        rendered mail to the signed-in member's own address (never a client's), subject "[Test] …";
 *        Send webhook: the sample body POSTed to the URL through the safe outbound HTTP, its status answered.
 *
 * Both refuse unknown placeholders as saving does (422 unknown_placeholder). Test sends are
 * limited to TEST_SEND_LIMIT per member per hour (429 rate_limited; RATE_LIMITS=off lifts it).
 */

export const TEST_SEND_LIMIT = 10;
const TEST_SEND_WINDOW_SECONDS = 3600;

const trialBody = z.object({ trigger: z.enum(AUTOMATION_TRIGGERS), action: actionSchema });

const previewSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('email'),
    to: z.string(),
    from_name: z.string(),
    subject: z.string(),
    text: z.string(),
  }),
  z.object({ kind: z.literal('webhook'), url: z.string(), body: z.string() }),
  z.object({ kind: z.literal('onboarding'), to: z.string() }),
]);

const sentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('email'), to: z.string() }),
  z.object({
    kind: z.literal('webhook'),
    url: z.string(),
    status: z.number().int().nullable(),
    outcome: z.string(),
  }),
]);

type Body = z.infer<typeof trialBody>;

async function rendered(context: WorkspaceDeps, teamId: string, body: Body): Promise<Rendered> {
  checkPlaceholders(body.action);
  const team = await teamWithOwner(context.pool, teamId);
  if (!team) throw codedError(404, 'team_not_found', 'Team not found');
  const member =
    body.action.type === 'notify_member'
      ? await currentMember(context.pool, teamId, body.action.member_id)
      : undefined;
  return renderSample(team, body.trigger, body.action, context.clock.now(), member?.email ?? null);
}

export function ruleTrialRoutes(app: ZodApp, context: WorkspaceDeps) {
  const limiter = context.settings.RATE_LIMITS
    ? new RateLimiter(
        context.rateLimitStores.store('automation_test', TEST_SEND_WINDOW_SECONDS),
        context.clock,
        TEST_SEND_WINDOW_SECONDS,
      )
    : null;

  app.post(
    '/automation-rules/preview',
    {
      config: { workspace: { action: 'automation_rules.manage' } },
      schema: workspaceSchema(
        'workspacePreviewAutomationRule',
        "A rule's action rendered for a sample onboarding, as a real run renders it",
        { body: trialBody },
        { 200: z.object({ preview: previewSchema }) },
      ),
    },
    async (request) => ({ preview: await rendered(context, signedIn(request).teamId, request.body) }),
  );

  app.post(
    '/automation-rules/test',
    {
      config: { workspace: { action: 'automation_rules.manage' } },
      schema: workspaceSchema(
        'workspaceTestAutomationRule',
        "Send a test of a rule's action: an email to yourself, or the sample webhook to its URL",
        { body: trialBody },
        { 200: z.object({ sent: sentSchema }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      if (limiter) {
        const decision = await limiter.consume(`member:${session.memberId}`, TEST_SEND_LIMIT);
        if (!decision.allowed) {
          const minutes = Math.max(1, Math.ceil(decision.retryAfterSeconds / 60));
          throw new ApiError(
            429,
            `You have sent ${TEST_SEND_LIMIT} tests this hour: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
            {
              code: 'rate_limited',
              retryable: true,
              headers: { 'retry-after': String(decision.retryAfterSeconds) },
            },
          );
        }
      }
      if (request.body.action.type === 'create_onboarding')
        throw codedError(400, 'invalid_body', 'Only email and webhook actions can be sent as a test.');
      const preview = await rendered(context, session.teamId, request.body);
      await checkAction(context, session.teamId, request.body.action);
      if (preview.kind === 'email') {
        await inTransaction(context.pool, (tx) =>
          queueMail(tx, {
            teamId: session.teamId,
            kind: 'notification',
            to: session.email,
            fromName: preview.from_name,
            subject: `[Test] ${preview.subject}`,
            text: preview.text,
            onboardingId: null,
            at: context.clock.now(),
          }),
        );
        return { sent: { kind: 'email' as const, to: session.email } };
      }
      if (preview.kind !== 'webhook') throw new Error('unreachable: create_onboarding refused above');
      const id = (JSON.parse(preview.body) as { id: string }).id;
      const outcome = await safePost(
        {
          url: preview.url,
          headers: {
            'Content-Type': 'application/json',
            'X-Service-Event-Id': id,
            'Idempotency-Key': id,
            'X-Service-Test': 'true',
          },
          body: preview.body,
        },
        outboundOptions(context),
      );
      return {
        sent:
          outcome.kind === 'response'
            ? {
                kind: 'webhook' as const,
                url: preview.url,
                status: outcome.status,
                outcome: `HTTP ${outcome.status}`,
              }
            : { kind: 'webhook' as const, url: preview.url, status: null, outcome: outcome.reason },
      };
    },
  );
}
