import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { inCommandTransaction } from '../../shared/commands/handle-command.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { ApiError } from '../../shared/http/api-error.ts';
import { answeringRefusals } from '../../shared/http/domain-errors.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import { SECRET_ANSWER } from '../../shared/http/secret-answer.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata, signedIn } from '../../shared/http/workspace-request.ts';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { teamFacts } from '../../projections/teams/queries.ts';
import { queueClientEmail } from './client-email.ts';
import { clearTokenFromInvites } from './client-link.ts';
import {
  activeTokenHash,
  nextReminderAt,
  REMINDER_LIMIT,
  REMINDER_MESSAGE_MAX,
  REMINDER_WINDOW_HOURS,
  type Onboarding,
  type OnboardingState,
} from './decider/index.ts';
import { portalLink } from './invite-email.ts';
import { clientFacts } from './onboarding-facts.ts';
import { onboardingErrors } from './onboarding-errors.ts';
import { onboardingNotFound, teamOnboardingEvents } from './onboarding-stream-view.ts';
import { readOnboarding, runOnboardingCommand, type RunOptions } from './onboarding-unit-of-work.ts';

/*
 * The client's link and "Send a reminder now" in the workspace (every role; the member is
 * the actor), docs/decisions/0076-the-clients-link-and-reminders-now.md:
 *
 *   GET  /onboardings/:onboarding_id/link     the client's current link, or null and why (no-store)
 *   POST /onboardings/:onboarding_id/remind   { message? } a reminder email now, with the member's words
 *
 * The link is the one in the invite the send or reopen queued (./client-link.ts): tokens
 * are stored hashed, so a link whose invite is gone cannot be shown (send again for a new
 * one). The answer holds the token: Cache-Control no-store, and it is never logged (the
 * path holds only the onboarding id). A reminder is the decider's RemindClient (limit per
 * onboarding, decided under the stream's lock: decider/remind.ts) with the reminder email
 * queued in the same transaction; the timeline shows client_reminded naming the member,
 * the message itself is only in the sealed email.
 */

const params = z.object({ onboarding_id: z.string().uuid() });

/** Why there is no link to show. */
export const NO_LINK_REASONS = ['not_sent', 'closed', 'link_expired', 'link_not_kept'] as const;
type NoLinkReason = (typeof NO_LINK_REASONS)[number];

const linkAnswer = z.object({
  url: z.string().nullable().describe('the client’s form page (PUBLIC_URL/f/<token>); null when none works'),
  reason: z
    .enum(NO_LINK_REASONS)
    .nullable()
    .describe(
      'why url is null: not_sent (a draft), closed (cancelled, expired, archived or erased), link_expired (its expires_at passed), link_not_kept (the invite that held it is gone: send again for a new link); null with a url',
    ),
  pin_required: z.boolean().describe('the link asks for the PIN the team gave the client'),
  reminders: z.object({
    limit: z.number().int().describe('reminders a member may send in the window'),
    window_hours: z.number().int(),
    next_at: z
      .string()
      .nullable()
      .describe('when the next reminder may go (now or later); null when no reminder can go'),
  }),
});

const remindBody = z
  .object({
    message: z
      .string()
      .trim()
      .max(REMINDER_MESSAGE_MAX, `message is at most ${REMINDER_MESSAGE_MAX} characters`)
      .nullish()
      .describe('a personal message, only in the email; 0 to 1000 characters'),
  })
  .nullish();

const NOT_FOUND = 'Unknown onboarding, another team’s, or its client was erased (code target_unavailable)';

/** Why a state has no link to show; null when its link works. */
function noLinkReason(state: Onboarding, now: Date): NoLinkReason | null {
  if (state.status === 'draft') return 'not_sent';
  if (activeTokenHash(state, now) !== null) return null;
  if (state.status === 'sent' || state.status === 'in_progress' || state.status === 'completed') {
    if (state.archived_at === null && state.client_erased_at === null && state.token_hash !== null) {
      return 'link_expired';
    }
  }
  return 'closed';
}

/** When the next reminder may go, or null when the onboarding takes none (not sent or in progress, no link). */
function nextReminder(state: Onboarding, now: Date): string | null {
  const open = state.status === 'sent' || state.status === 'in_progress';
  if (!open || activeTokenHash(state, now) === null) return null;
  return nextReminderAt(state, now).toISOString();
}

/** The answer of GET link for the onboarding as it is now. */
async function linkOf(context: WorkspaceDeps, db: Pick<PoolClient, 'query'>, state: Onboarding) {
  const now = context.clock.now();
  const hash = activeTokenHash(state, now);
  const token = hash === null ? undefined : await clearTokenFromInvites(db, context.vault, state.id, hash);
  const reason = token ? null : (noLinkReason(state, now) ?? 'link_not_kept');
  return {
    url: token ? portalLink(context.settings.PUBLIC_URL, token) : null,
    reason,
    pin_required: state.pin !== null,
    reminders: {
      limit: REMINDER_LIMIT,
      window_hours: REMINDER_WINDOW_HOURS,
      next_at: nextReminder(state, now),
    },
  };
}

/** The onboarding of the member's team, or 404. */
async function teamOnboarding(context: WorkspaceDeps, request: FastifyRequest, id: string) {
  await teamOnboardingEvents(context, request, id);
  const { state } = await readOnboarding(context.eventStore, id);
  if (state.status === 'absent') throw onboardingNotFound();
  return state;
}

/** GET /onboardings/:onboarding_id/link */
function getLinkRoute(app: ZodApp, context: WorkspaceDeps) {
  app.get(
    '/onboardings/:onboarding_id/link',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'onboardings.manage' } },
      schema: workspaceSchema(
        'workspaceGetClientLink',
        'The client’s current link to copy (the one the latest send or reopen emailed), or null and why; whether a reminder can go now',
        { params },
        { 200: linkAnswer, 404: coded(NOT_FOUND) },
      ),
    },
    async (request) => {
      const state = await teamOnboarding(context, request, request.params.onboarding_id);
      return linkOf(context, context.pool, state);
    },
  );
}

/** The reminder email of the decided client_reminded, queued with the event. */
function reminderEffect(
  context: WorkspaceDeps,
  recipient: () => { name: string | null; email: string | null },
  message: string | null,
): NonNullable<RunOptions['effects']> {
  return async ({ state, events, eventIds }, tx, held) => {
    const index = events.findIndex((event) => event.type === 'client_reminded');
    const { name, email } = recipient();
    if (index < 0 || state.status === 'absent' || !email) return;
    const team = await teamFacts(tx, state.team_id);
    if (!team) throw new Error(`Team ${state.team_id} of a signed-in member has no read model row`);
    const now = context.clock.now();
    const hash = activeTokenHash(state, now);
    await queueClientEmail(tx, {
      kind: 'reminder',
      extra: {
        token: hash === null ? undefined : await clearTokenFromInvites(tx, context.vault, state.id, hash),
        message,
      },
      publicUrl: context.settings.PUBLIC_URL,
      team,
      recipient: { name, email },
      onboarding: state,
      eventId: eventIds[index],
      at: now,
      held,
    });
  };
}

/** The limit's refusal with Retry-After: when the oldest counted reminder leaves the window. */
function withRetryAfter(error: unknown, state: OnboardingState | undefined, now: Date): unknown {
  if (!(error instanceof ApiError) || error.options.code !== 'reminder_limit_reached') return error;
  if (!state || state.status === 'absent') return error;
  const seconds = Math.max(1, Math.ceil((nextReminderAt(state, now).getTime() - now.getTime()) / 1000));
  return new ApiError(error.status, error.text, {
    ...error.options,
    headers: { ...error.options.headers, 'Retry-After': String(seconds) },
  });
}

/**
 * "Send a reminder now" on one of the member's team's onboardings: the decider's RemindClient
 * (its limit decided under the stream's lock) with the email queued in the same transaction;
 * refusals thrown as the API answers them. The route and the list's bulk reminder share it.
 */
export async function remindClient(
  context: WorkspaceDeps,
  request: FastifyRequest,
  onboardingId: string,
  message: string | null,
) {
  const session = signedIn(request);
  await teamOnboardingEvents(context, request, onboardingId);
  let client: Awaited<ReturnType<typeof clientFacts>> = { status: 'missing', name: null, email: null };
  let seen: OnboardingState | undefined;
  return answeringRefusals(onboardingErrors, () =>
    inCommandTransaction(context, (tx) =>
      runOnboardingCommand(
        context,
        tx,
        onboardingId,
        async (state) => {
          seen = state;
          if (state.status !== 'absent') client = await clientFacts(tx, session.teamId, state.client_id);
          const team = await teamFacts(tx, session.teamId);
          return {
            type: 'RemindClient',
            data: {
              team_id: session.teamId,
              member_id: session.memberId,
              client: client.status,
              sending_paused: team?.sending_paused ?? false,
              with_message: message !== null,
            },
            metadata: { now: context.clock.now() },
          };
        },
        memberMetadata(request, session.memberId),
        { effects: reminderEffect(context, () => client, message) },
      ),
    ),
  ).catch((error: unknown) => {
    throw withRetryAfter(error, seen, context.clock.now());
  });
}

/** POST /onboardings/:onboarding_id/remind */
function postRemindRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/onboardings/:onboarding_id/remind',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'onboardings.manage' } },
      schema: workspaceSchema(
        'workspaceRemindClient',
        `Send the client a reminder email now, with an optional personal message (only in the email); a sent or in-progress onboarding whose link works, at most ${REMINDER_LIMIT} in ${REMINDER_WINDOW_HOURS} hours`,
        { params, body: remindBody },
        {
          201: linkAnswer,
          403: coded('The team’s sending is paused (sending_paused)'),
          404: coded(NOT_FOUND),
          409: coded('Not sent or in progress, or its link expired (invalid_state)'),
          410: coded('The client is being erased (client_erasure_pending)'),
          429: coded(
            `${REMINDER_LIMIT} reminders in the last ${REMINDER_WINDOW_HOURS} hours (reminder_limit_reached; Retry-After says when the next may go)`,
          ),
        },
      ),
    },
    async (request, reply) => {
      const outcome = await remindClient(
        context,
        request,
        request.params.onboarding_id,
        request.body?.message || null,
      );
      await awaitReadModels(context, outcome.position);
      if (outcome.state.status === 'absent') throw onboardingNotFound();
      return reply.status(201).send(await linkOf(context, context.pool, outcome.state));
    },
  );
}

export async function workspaceLinkRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  getLinkRoute(app, context);
  postRemindRoute(app, context);
}
