import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { zodApp } from '../../../shared/http/zod-app.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { memberMetadata, signedIn } from '../../../shared/http/workspace-request.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import { reviewStatus, SEND_BACK_MAX } from '../decider/index.ts';
import { runOnboardingRouteCommand } from '../onboarding-route-command.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { toDomainEvent } from '../../../shared/commands/handle-command.ts';
import type { OnboardingEvent, TemplateSnapshot } from '../onboarding-events.ts';
import { currentSnapshot } from '../payments-view.ts';
import { onboardingNotFound, teamOnboardingEvents } from '../onboarding-stream-view.ts';

/*
 * POST /onboardings/:id/answers/approve   {field_ids: [...]}
 *
 * Approve all / approve step (decision 0089): the member approves the answers they see
 * waiting, in one request. Each answer is one ApproveAnswer command of the review decider
 * (decider/review.ts) in a transaction of its own under the stream's lock, so the
 * decider's rules hold for each: only a submitted answer is approved, and of two racing
 * approvals one wins. An answer that no longer waits when its turn comes (approved by a
 * colleague meanwhile, sent back, not submitted) is skipped and named in `skipped`, not an
 * error: the member asked for "every one still waiting". Another team's onboarding, an
 * unknown one or an erased client's is 404 target_unavailable; an unknown field is 404
 * field_not_found before anything is approved.
 */

const params = z.object({ onboarding_id: z.string().uuid() });
const body = z.object({
  field_ids: z
    .array(z.string().min(1).max(100))
    .min(1)
    .max(SEND_BACK_MAX)
    .refine((ids) => new Set(ids).size === ids.length, 'field_ids must name each field once')
    .describe('the answers to approve, as the member sees them waiting (one step’s or all)'),
});

/** An answer that no longer waits for review when its command runs. */
class NotWaiting extends Error {}

export async function batchApproveRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  app.post(
    '/onboardings/:onboarding_id/answers/approve',
    {
      config: { workspace: { action: 'answers.review' } },
      schema: workspaceSchema(
        'workspaceApproveAnswers',
        'Approve several submitted answers in one request (approve all, approve a step): each still waiting is approved once; the others are skipped',
        { params, body },
        {
          200: z.object({
            approved: z.array(z.string()).describe('the field ids approved by this request'),
            skipped: z.array(z.string()).describe('the field ids that no longer waited for review'),
          }),
          404: coded(
            'Unknown onboarding, another team’s, or its client was erased (code target_unavailable); unknown field (field_not_found)',
          ),
          409: coded('The onboarding is neither in progress nor completed (code invalid_state)'),
        },
      ),
    },
    async (request) => {
      const { onboarding_id: onboardingId } = request.params;
      const session = signedIn(request);
      const events = await teamOnboardingEvents(context, request, onboardingId);
      const snapshot = currentSnapshot(events.map((event) => toDomainEvent<OnboardingEvent>(event)));
      const unknown = request.body.field_ids.find((id) => !snapshot || !knownField(snapshot, id));
      if (unknown !== undefined) {
        throw codedError(404, 'field_not_found', `Field ${unknown} is not on this onboarding's form`);
      }
      const approved: string[] = [];
      const skipped: string[] = [];
      for (const fieldId of request.body.field_ids) {
        try {
          await runOnboardingRouteCommand(
            context,
            request,
            onboardingId,
            (state) => {
              // Decided under the stream's lock: a colleague's approval that landed first wins.
              const notWaiting =
                state.status !== 'absent' &&
                state.team_id === session.teamId &&
                knownField(state.snapshot, fieldId) &&
                reviewStatus(state, fieldId) !== 'submitted';
              if (notWaiting) throw new NotWaiting(fieldId);
              return {
                type: 'ApproveAnswer',
                data: { team_id: session.teamId, field_id: fieldId, member_id: session.memberId },
                metadata: { now: context.clock.now() },
              };
            },
            onboardingNotFound,
            undefined,
            memberMetadata(request, session.memberId),
          );
          approved.push(fieldId);
        } catch (error) {
          if (!(error instanceof NotWaiting)) throw error;
          skipped.push(fieldId);
        }
      }
      return { approved, skipped };
    },
  );
}

/** Whether the field is on the onboarding's form. */
function knownField(snapshot: TemplateSnapshot, id: string) {
  return snapshot.steps.some((step) => step.fields.some((field) => field.id === id));
}
