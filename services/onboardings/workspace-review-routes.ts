import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import { currentMember } from '../access/index.ts';
import { memberNames } from '../../projections/teams/queries.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { binaryResponse } from '../../shared/http/openapi-3-1-schema.ts';
import { toDomainEvent } from '../../shared/commands/handle-command.ts';
import { answerHistory } from './answer-history.ts';
import { memberEvidence } from './signature-evidence.ts';
import { REVIEW_REASON_MAX } from './decider/index.ts';
import type { OnboardingEvent } from './onboarding-events.ts';
import { decidedEvent, runOnboardingRouteCommand } from './onboarding-route-command.ts';
import { onboardingNotFound, openedValues, teamOnboardingEvents } from './onboarding-stream-view.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import { sendOnboardingFile } from './file-download.ts';
import {
  postOnboardingsByOnboardingIdAnswersSendBackRoute,
  sentBackEmail,
} from './workspace-send-back-routes.ts';

/*
 * Review of answers in the workspace (every role of the team):
 *
 *   GET  /onboardings/:id/answers                     every answered field: status, reason, versions, reviews, diff
 *   POST /onboardings/:id/answers/:field_id/review    {decision: approve|reject|request_changes, reason?}
 *   POST /onboardings/:id/answers/send-back           several answers back in one send (workspace-send-back-routes.ts)
 *   POST /onboardings/:id/countersign                 {field_id}: the signed-in member countersigns
 *   GET  /onboardings/:id/files/:file_id              the uploaded file, as an attachment
 *
 * Reviews and countersignatures are onboarding commands through the one command pipeline
 * with the member as actor (metadata actor_member_id). Refusals: 404 target_unavailable
 * (unknown, another team's, erased client's), 404 field_not_found, 409 invalid_state (not
 * a submitted answer; not in progress or completed), 400 invalid_body (reason missing or
 * over 2000 characters). A rejection or a request for changes emails the client (one
 * changes_requested email: sent-back-email.ts).
 */

const params = z.object({ onboarding_id: z.string().uuid() });
const fieldParams = params.extend({ field_id: z.string().min(1).max(100) });
const fileParams = params.extend({ file_id: z.string().uuid() });

const reviewBody = z
  .object({
    decision: z.enum(['approve', 'reject', 'request_changes']),
    reason: z
      .string()
      .trim()
      .max(REVIEW_REASON_MAX)
      .optional()
      .describe('required to reject (the reason) or to request changes (the note); 1 to 2000 characters'),
  })
  .refine((body) => body.decision === 'approve' || (body.reason ?? '').length > 0, {
    message: 'reason is required to reject or to request changes',
    path: ['reason'],
  });

const versionSchema = z.object({ number: z.number().int(), value: z.unknown(), submitted_at: z.string() });
const answerSchema = z.object({
  field_id: z.string(),
  step_id: z.string(),
  label: z.string(),
  type: z.string(),
  status: z.enum(['draft', 'submitted', 'approved', 'rejected', 'changes_requested']),
  reason: z.string().nullable(),
  value: z.unknown(),
  versions: z.array(versionSchema),
  reviews: z.array(
    z.object({
      decision: z.enum(['approved', 'rejected', 'changes_requested']),
      reason: z.string().nullable(),
      member_id: z.string(),
      member_name: z.string(),
      reviewed_at: z.string(),
      version: z.number().int(),
    }),
  ),
  countersignatures: z.array(
    z.object({ member_id: z.string(), member_name: z.string(), signed_at: z.string() }),
  ),
  diff: z
    .union([
      z.object({
        kind: z.literal('words'),
        from: z.number().int(),
        to: z.number().int(),
        parts: z.array(z.object({ value: z.string(), added: z.boolean(), removed: z.boolean() })),
      }),
      z.object({
        kind: z.literal('values'),
        from: z.number().int(),
        to: z.number().int(),
        before: z.unknown(),
        after: z.unknown(),
      }),
    ])
    .nullable(),
});

const NOT_FOUND = 'Unknown onboarding, another team’s, or its client was erased (code target_unavailable)';

/** What the routes of this file share. */
function workspaceReviewKit(context: WorkspaceDeps) {
  async function answersOf(
    teamId: string,
    onboardingId: string,
    events: Awaited<ReturnType<typeof teamOnboardingEvents>>,
  ) {
    const domain = events.map((recorded) => ({
      id: recorded.id,
      event: toDomainEvent<OnboardingEvent>(recorded),
    }));
    const created = domain.find(({ event }) => event.type === 'onboarding_created')?.event;
    if (created?.type !== 'onboarding_created') throw onboardingNotFound();
    const [opened, names] = await Promise.all([
      openedValues(context, events),
      memberNames(context.readPool, teamId),
    ]);
    const name = (id: string) => names.get(id) ?? 'Former member';
    return answerHistory(created.data.template_snapshot, domain, opened).map((answer) => ({
      ...answer,
      reviews: answer.reviews.map((review) => ({ ...review, member_name: name(review.member_id) })),
      countersignatures: answer.countersignatures.map((signed) => ({
        ...signed,
        member_name: name(signed.member_id),
      })),
    }));
  }
  return { context, answersOf };
}

type WorkspaceReviewKit = ReturnType<typeof workspaceReviewKit>;

/** GET /onboardings/:onboarding_id/answers */
function getOnboardingsByOnboardingIdAnswersRoute(app: ZodApp, { context, answersOf }: WorkspaceReviewKit) {
  app.get(
    '/onboardings/:onboarding_id/answers',
    {
      config: { workspace: { action: 'answers.read' } },
      schema: workspaceSchema(
        'workspaceListAnswers',
        'Every answered field of an onboarding: review status, reason, versions, reviews and the diff since the last review',
        { params },
        { 200: z.object({ answers: z.array(answerSchema) }), 404: coded(NOT_FOUND) },
      ),
    },
    async (request) => {
      const { onboarding_id: onboardingId } = request.params;
      const teamId = signedIn(request).teamId;
      const events = await teamOnboardingEvents(context, request, onboardingId);
      return { answers: await answersOf(teamId, onboardingId, events) };
    },
  );
}

/** POST /onboardings/:onboarding_id/answers/:field_id/review */
function postOnboardingsByOnboardingIdAnswersByFieldIdReviewRoute(
  app: ZodApp,
  { context, answersOf }: WorkspaceReviewKit,
) {
  app.post(
    '/onboardings/:onboarding_id/answers/:field_id/review',
    {
      config: { workspace: { action: 'answers.review' } },
      schema: workspaceSchema(
        'workspaceReviewAnswer',
        'Approve a submitted answer, reject it with a reason, or ask for changes with a note',
        { params: fieldParams, body: reviewBody },
        {
          200: z.object({ answer: answerSchema }),
          404: coded(`${NOT_FOUND}; unknown field (field_not_found)`),
          409: coded(
            'Only a submitted answer can be reviewed; or the onboarding is neither in progress nor completed (code invalid_state)',
          ),
        },
      ),
    },
    async (request) => {
      const { onboarding_id: onboardingId, field_id: fieldId } = request.params;
      const session = signedIn(request);
      await teamOnboardingEvents(context, request, onboardingId);
      const { decision, reason } = request.body;
      const data = { team_id: session.teamId, field_id: fieldId, member_id: session.memberId };
      const now = { now: context.clock.now() };
      await runOnboardingRouteCommand(
        context,
        request,
        onboardingId,
        () =>
          decision === 'approve'
            ? { type: 'ApproveAnswer', data, metadata: now }
            : {
                type: decision === 'reject' ? 'RejectAnswer' : 'RequestChanges',
                data: { ...data, reason: reason ?? '' },
                metadata: now,
              },
        onboardingNotFound,
        decision === 'approve' ? undefined : sentBackEmail(context),
        memberMetadata(request, session.memberId),
      );
      const events = await teamOnboardingEvents(context, request, onboardingId);
      const answer = (await answersOf(session.teamId, onboardingId, events)).find(
        (one) => one.field_id === fieldId,
      );
      if (!answer) throw new Error('A reviewed answer is missing from the answers');
      return { answer };
    },
  );
}

/** POST /onboardings/:onboarding_id/countersign */
function postOnboardingsByOnboardingIdCountersignRoute(app: ZodApp, { context }: WorkspaceReviewKit) {
  app.post(
    '/onboardings/:onboarding_id/countersign',
    {
      config: { workspace: { action: 'answers.review' } },
      schema: workspaceSchema(
        'workspaceCountersign',
        'The signed-in member countersigns a signature field (signature.signed with signer_role team_member)',
        {
          params,
          body: z.object({
            field_id: z.string().min(1).max(100).describe('a signature field of the onboarding'),
          }),
        },
        {
          201: z.object({
            signature: z.object({
              id: z.string().uuid(),
              field_id: z.string(),
              signer_name: z.string(),
              signed_at: z.string(),
            }),
          }),
          404: coded(`${NOT_FOUND}; not a signature field (field_not_found)`),
          409: coded('The onboarding is neither in progress nor completed (code invalid_state)'),
        },
      ),
    },
    async (request, reply) => {
      const { onboarding_id: onboardingId } = request.params;
      const session = signedIn(request);
      await teamOnboardingEvents(context, request, onboardingId);
      const signer = await currentMember(context.pool, session.teamId, session.memberId);
      if (!signer) throw codedError(404, 'member_not_found', 'Member not found');
      const signatureId = randomUUID();
      const outcome = await runOnboardingRouteCommand(
        context,
        request,
        onboardingId,
        async (state) => ({
          type: 'SignField',
          data: {
            field_id: request.body.field_id,
            signature_id: signatureId,
            signer_name: signer.name,
            signer_email: signer.email,
            signer: { role: 'team_member', member_id: session.memberId },
            // The countersigner is the member: their evidence, the answers they countersign.
            ...(state.status === 'absent' ? {} : { evidence: await memberEvidence(context, request, state) }),
          },
          metadata: { now: context.clock.now() },
        }),
        onboardingNotFound,
        undefined,
        memberMetadata(request, session.memberId),
      );
      const signed = decidedEvent(outcome, 'signature.signed', 'SignField');
      return reply.status(201).send({
        signature: {
          id: signatureId,
          field_id: signed.data.field_id,
          signer_name: signer.name,
          signed_at: signed.data.signed_at,
        },
      });
    },
  );
}

/** GET /onboardings/:onboarding_id/files/:file_id */
function getOnboardingsByOnboardingIdFilesByFileIdRoute(app: ZodApp, { context }: WorkspaceReviewKit) {
  app.get(
    '/onboardings/:onboarding_id/files/:file_id',
    {
      config: { workspace: { action: 'answers.read' } },
      schema: workspaceSchema(
        'workspaceDownloadFile',
        'Download an uploaded file: its bytes with the content type read from them at upload, as an attachment (Content-Disposition with the file name in UTF-8, X-Content-Type-Options: nosniff)',
        { params: fileParams },
        {
          200: binaryResponse("The file's bytes, with the content type read from them at upload"),
          404: coded(`${NOT_FOUND}; unknown or removed file, or an erased client's (file_not_found)`),
        },
      ),
    },
    async (request, reply) => {
      const { onboarding_id: onboardingId, file_id: fileId } = request.params;
      await teamOnboardingEvents(context, request, onboardingId);
      return sendOnboardingFile(context, reply, onboardingId, fileId);
    },
  );
}

export async function workspaceReviewRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  const kit = workspaceReviewKit(context);
  getOnboardingsByOnboardingIdAnswersRoute(app, kit);
  postOnboardingsByOnboardingIdAnswersByFieldIdReviewRoute(app, kit);
  postOnboardingsByOnboardingIdAnswersSendBackRoute(app, context);
  postOnboardingsByOnboardingIdCountersignRoute(app, kit);
  getOnboardingsByOnboardingIdFilesByFileIdRoute(app, kit);
}
