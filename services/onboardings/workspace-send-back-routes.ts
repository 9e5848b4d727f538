import { z } from 'zod';
import type { ZodApp } from '../../shared/http/zod-app.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata, signedIn } from '../../shared/http/workspace-request.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import { REVIEW_REASON_MAX, SEND_BACK_MAX } from './decider/index.ts';
import { runOnboardingRouteCommand } from './onboarding-route-command.ts';
import { onboardingNotFound, teamOnboardingEvents } from './onboarding-stream-view.ts';
import { sentBackEmailEffect } from './sent-back-email.ts';

/*
 * POST /onboardings/:id/answers/send-back   {answers: [{field_id, decision, reason}]}
 *
 * A member sends one or several submitted answers back to the client in one send (reject
 * or request changes, each with its reason): one review event per answer, all or none,
 * and ONE changes_requested email to the client with the reasons and the client's link
 * at the first of those answers (sent-back-email.ts). Refusals as the single review's:
 * 404 target_unavailable / field_not_found, 409 invalid_state (an answer that is not a
 * submitted one), 400 invalid_body (no answers, a field twice, a reason missing or too long).
 */

const params = z.object({ onboarding_id: z.string().uuid() });

const sendBackBody = z.object({
  answers: z
    .array(
      z.object({
        field_id: z.string().min(1).max(100),
        decision: z.enum(['reject', 'request_changes']),
        reason: z
          .string()
          .trim()
          .min(1)
          .max(REVIEW_REASON_MAX)
          .describe('the reason (reject) or the note (request changes); 1 to 2000 characters'),
      }),
    )
    .min(1)
    .max(SEND_BACK_MAX),
});

const NOT_FOUND = 'Unknown onboarding, another team’s, or its client was erased (code target_unavailable)';

/** The effect every review that sends answers back uses: the one email to the client. */
export const sentBackEmail = (context: WorkspaceDeps) => ({
  effects: sentBackEmailEffect({
    publicUrl: context.settings.PUBLIC_URL,
    vault: context.vault,
    now: context.clock.now(),
  }),
});

/** POST /onboardings/:onboarding_id/answers/send-back */
export function postOnboardingsByOnboardingIdAnswersSendBackRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/onboardings/:onboarding_id/answers/send-back',
    {
      config: { workspace: { action: 'answers.review' } },
      schema: workspaceSchema(
        'workspaceSendBackAnswers',
        'Send one or several submitted answers back to the client in one send (reject with a reason or request changes with a note): the client gets one email with the reasons and a link to the first of them',
        { params, body: sendBackBody },
        {
          200: z.object({
            sent_back: z.array(z.string()).describe('the field ids sent back, as asked'),
          }),
          404: coded(`${NOT_FOUND}; unknown field (field_not_found)`),
          409: coded(
            'Only a submitted answer can be sent back; or the onboarding is neither in progress nor completed (code invalid_state)',
          ),
        },
      ),
    },
    async (request) => {
      const { onboarding_id: onboardingId } = request.params;
      const session = signedIn(request);
      await teamOnboardingEvents(context, request, onboardingId);
      const { answers } = request.body;
      await runOnboardingRouteCommand(
        context,
        request,
        onboardingId,
        () => ({
          type: 'SendBackAnswers',
          data: { team_id: session.teamId, member_id: session.memberId, answers },
          metadata: { now: context.clock.now() },
        }),
        onboardingNotFound,
        sentBackEmail(context),
        memberMetadata(request, session.memberId),
      );
      return { sent_back: answers.map((answer) => answer.field_id) };
    },
  );
}
