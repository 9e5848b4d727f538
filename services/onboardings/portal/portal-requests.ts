import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RunOptions } from '../onboarding-unit-of-work.ts';
import { fileConfig } from '../../templates/contract/field-catalogue.ts';
import { type Onboarding, type OnboardingCommand, type OnboardingState } from '../decider/index.ts';
import { ONBOARDING_STATUSES } from '../onboarding-events.ts';
import { MAX_FILE_BYTES } from '../onboarding-files.ts';
import { findField } from '../template-snapshot.ts';
import type { SealedValue } from '../../../shared/privacy/personal-data-vault.ts';
import type { Platform } from '../../../shared/app-deps.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { runOnboardingRouteCommand, type OnboardingRouteCommandDeps } from '../onboarding-route-command.ts';
import { allResponses, responseSchema } from '../../../projections/responses/queries.ts';
import { linkInactive, PIN_HEADER, PortalAccess, type PortalLink } from './portal-access.ts';
import { linkSessionId } from './portal-link-sessions.ts';
import { formAttachments, formFileSchema, formSignatureSchema } from './portal-form-view.ts';

export type PortalRouteDeps = Pick<
  Platform,
  'pool' | 'eventStore' | 'clock' | 'vault' | 'readPool' | 'stripe'
> &
  OnboardingRouteCommandDeps;

/*
 * The client portal (operator-and-portal-api.md, Client portal API):
 * /portal/v1/onboardings/:token with GET, PUT answers/:field_id, POST
 * steps/:step_id/submit, POST fields/:field_id/signature, POST fields/:field_id/files and
 * DELETE files/:file_id.
 * Every request passes the link rules of ./portal-access.ts first (404 link_inactive,
 * 401 pin_required), then runs one onboarding command in one transaction
 * (the command pipeline, shared/commands/handle-command.ts) and answers once the read models have its
 * events. What the client enters (answer values, signer name and email, file names) is
 * sealed with the client's own key before it goes into an event, so erasing the client
 * makes it unreadable everywhere the log is kept.
 */

export const portalOnboarding = z.object({
  id: z.string().uuid(),
  status: z.enum(ONBOARDING_STATUSES),
  progress_pct: z.number().int(),
  due_date: z.string().nullable().describe('ISO 8601 with offset'),
  template_snapshot: z.record(z.unknown()),
  responses: z.array(responseSchema),
  files: z.array(formFileSchema).describe('files uploaded and not deleted, oldest first'),
  signatures: z.array(formSignatureSchema).describe("the client's signatures, the newest per field"),
  document_ready: z
    .boolean()
    .describe(
      'the signed PDF of the completed onboarding is ready at GET /portal/v1/onboardings/:token/document',
    ),
  submitted_step_ids: z.array(z.string()).describe('steps submitted, in the order they were'),
  signer_email: z
    .string()
    .nullable()
    .optional()
    .describe("the email a signature records: the client's own (GET only; null when unreadable)"),
  prefill: z
    .record(z.string())
    .optional()
    .describe(
      "GET only: answers the form starts from the client record (a field's config.prefill), by field id, for fields not answered yet; the form autosaves them when it opens",
    ),
  paid_field_ids: z.array(z.string()).describe('payment fields whose payment the team recorded'),
  failed_payment_field_ids: z
    .array(z.string())
    .describe('payment fields with a failed Checkout payment and no payment since: the client may try again'),
  reviews: z
    .array(
      z.object({
        field_id: z.string(),
        status: z.enum(['approved', 'rejected', 'changes_requested']),
        reason: z.string().nullable().describe('the rejection reason or the note asking for changes'),
      }),
    )
    .describe(
      'the team’s latest review of each reviewed answer: approved answers are locked; rejected or changes_requested ones can be changed and resubmitted (the step submit)',
    ),
});

export const signatureSchema = z.object({
  id: z.string().uuid(),
  field_id: z.string(),
  signer_name: z.string(),
  signer_email: z.string(),
  signer_role: z.literal('client'),
  signed_at: z.string(),
});

/** A file the client uploaded, as the upload answers it (the form lists the same shape). */
export const fileSchema = formFileSchema;

export const tokenParams = z.object({
  token: z.string().describe('the client access token (64 hex characters)'),
});
export const fieldParams = tokenParams.extend({ field_id: z.string().describe('a field of the onboarding') });
export const fileParams = tokenParams.extend({ file_id: z.string().describe('a file the client uploaded') });
export const stepParams = tokenParams.extend({ step_id: z.string().describe('a step of the onboarding') });

export const pinHeaders = z
  .object({
    [PIN_HEADER]: z
      .string()
      .optional()
      .describe(
        'the link’s 6-digit PIN, when the link has one and the request carries no link session (POST .../session)',
      ),
  })
  .passthrough();

export const answerBody = z
  .object({ value: z.unknown().describe('the answer: any JSON value') })
  .refine((body) => body.value !== undefined, { message: 'value is required', path: ['value'] });

export const signatureBody = z.object({
  signer_name: z.string().trim().min(1).max(200),
  signer_email: z.string().trim().toLowerCase().pipe(z.string().email().max(254)),
});

export const portalErrors = (extra: Record<number, string> = {}) => ({
  400: coded(
    'Malformed body (code invalid_body; a step with a required field unanswered names it in details)',
  ),
  401: coded(
    'The link has a PIN, the request carries no live link session, and X-Onboarding-Pin is missing or wrong (code pin_required)',
  ),
  404: coded(
    'Unknown, deactivated or expired link (code link_inactive); unknown field or step (field_not_found, step_not_found)',
  ),
  409: coded(
    'Not while the onboarding is in this status, or (completed) an answer the team did not send back (code invalid_state); an answer the team approved (code answer_locked)',
  ),
  429: z
    .object({ error: z.string(), code: z.literal('rate_limited') })
    .describe(
      'Too many requests from this IP address, PIN checks on this link, or wrong PINs for it (code rate_limited); header Retry-After: seconds until the window ends',
    ),
  500: coded('Server error; retryable'),
  ...Object.fromEntries(Object.entries(extra).map(([status, text]) => [status, coded(text)])),
});

/**
 * A portal route's schema: its operation, summary and description, no API key (the link is
 * the credential), its parts (params, body) with the link's PIN header, then its answers
 * over the portal's refusals (`extra`: the route's own text for a status).
 */
export function portalSchema<S extends object, A extends object>(
  head: { operationId: string; summary: string; description?: string },
  parts: S,
  answers: A,
  extra: Record<number, string> = {},
) {
  return {
    operationId: head.operationId,
    tags: ['portal'],
    summary: head.summary,
    ...(head.description === undefined ? {} : { description: head.description }),
    security: [],
    ...parts,
    headers: pinHeaders,
    response: { ...answers, ...portalErrors(extra) },
  };
}

/** An opened answer: the JSON the client sent; null when it is no longer readable. */
function parseEntered(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A sealed value where the event's type says string: the decider copies these fields as they are. */
export const opaque = (value: SealedValue) => value as unknown as string;

/**
 * What every portal route does with a request: open its link (a live link session of it, or
 * the PIN), run one onboarding command of the client, seal what the client entered, and
 * answer the form's view.
 */
export function portalRequests(context: PortalRouteDeps, access: PortalAccess) {
  /** The link of the request's token: a live link session of it, or the PIN in X-Onboarding-Pin. */
  const open = (request: FastifyRequest) =>
    access.open((request.params as { token: string }).token, {
      pin: request.headers[PIN_HEADER],
      sessionId: (tokenHash) => linkSessionId(request, tokenHash),
    });

  /** One onboarding command of the client; refusals become the portal's error bodies. */
  const run = (
    request: FastifyRequest,
    link: PortalLink,
    build: (state: OnboardingState) => OnboardingCommand | Promise<OnboardingCommand>,
    options?: RunOptions,
  ) => runOnboardingRouteCommand(context, request, link.onboardingId, build, linkInactive, options);

  /** Seals a value the client entered with the client's key (link_inactive when the client was just erased). */
  async function seal(link: PortalLink, value: string): Promise<SealedValue> {
    try {
      const sealed = await context.vault.seal(link.state.team_id, link.state.client_id, value);
      if (!sealed) throw new Error('sealing a value gave nothing');
      return sealed;
    } catch (error) {
      if (await context.vault.isErased(link.state.client_id)) throw linkInactive();
      throw error;
    }
  }

  /** The saved answers of a step as the client entered them, opened from the state's sealed values. */
  async function enteredValues(state: OnboardingState): Promise<Record<string, unknown>> {
    if (state.status === 'absent') return {};
    const values: Record<string, unknown> = {};
    // Every answer, not only the step's: a conditional rule may read another step's answer.
    for (const [fieldId, answer] of Object.entries(state.answers)) {
      const text = await context.vault.open(answer.value as SealedValue | string | null);
      values[fieldId] = parseEntered(text);
    }
    return values;
  }

  const view = async (state: Onboarding) => ({
    ...(await formAttachments(context, state.id)),
    id: state.id,
    status: state.status,
    progress_pct: state.progress_pct,
    due_date: state.due?.due_date ?? null,
    template_snapshot: state.snapshot as unknown as Record<string, unknown>,
    responses: await allResponses(context.readPool, context.vault, state.id),
    submitted_step_ids: [...state.submitted_steps],
    paid_field_ids: paidFieldIds(state),
    failed_payment_field_ids: failedPaymentFieldIds(state),
    reviews: Object.entries(state.reviews).map(([fieldId, review]) => ({ field_id: fieldId, ...review })),
  });

  const now = () => ({ now: context.clock.now() });

  /** The most bytes read of an upload to the field: its own limit within the service's. */
  function uploadLimit(link: PortalLink, fieldId: string): number {
    const located = findField(link.state.snapshot, fieldId);
    if (!located || located.field.type !== 'file_upload') return MAX_FILE_BYTES;
    return Math.min(MAX_FILE_BYTES, fileConfig(located.field).max_size_bytes);
  }

  /**
   * Answering through a link opens it: the first request of the client after a send, of
   * any kind, records onboarding.started (a sent onboarding becomes in_progress), so an
   * answer never fails only because the form was not fetched first.
   */
  async function opened(request: FastifyRequest, link: PortalLink): Promise<PortalLink> {
    if (link.state.started_since_send) return link;
    const outcome = await run(request, link, () => ({
      type: 'OpenLink',
      data: { token_hash: link.tokenHash },
      metadata: now(),
    }));
    return { ...link, state: outcome.state };
  }

  /** The link of a request that answers the form: opened (see `opened`). */
  const answering = async (request: FastifyRequest) => opened(request, await open(request));

  return { context, access, open, run, seal, enteredValues, view, now, uploadLimit, opened, answering };
}

export type PortalRequests = ReturnType<typeof portalRequests>;

/** Payment fields fulfilled by a recorded payment (payment.succeeded), for the page's "Payment received". */
function paidFieldIds(state: Onboarding): string[] {
  const fulfilled = new Set(state.fulfilled_fields);
  return state.snapshot.steps.flatMap((step) =>
    step.fields
      .filter((field) => field.type === 'payment' && fulfilled.has(field.id))
      .map((field) => field.id),
  );
}

/** Payment fields whose Checkout payment failed (payment_failed) and that are not paid since. */
function failedPaymentFieldIds(state: Onboarding): string[] {
  const fulfilled = new Set(state.fulfilled_fields);
  return Object.entries(state.failed_payment_attempts)
    .filter(([fieldId, attempts]) => attempts > 0 && !fulfilled.has(fieldId))
    .map(([fieldId]) => fieldId);
}
