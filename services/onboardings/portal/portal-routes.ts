import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RunOptions } from '../onboarding-unit-of-work.ts';
import { fileConfig } from '../../templates/contract/field-catalogue.ts';
import { type Onboarding, type OnboardingCommand, type OnboardingState } from '../decider/index.ts';
import { ONBOARDING_STATUSES } from '../onboarding-events.ts';
import {
  cleanFileName,
  deleteOnboardingFile,
  FALLBACK_FILE_NAME,
  MAX_FILE_BYTES,
  readOnboardingFile,
  saveOnboardingFile,
} from '../onboarding-files.ts';
import { downloadHeaders } from '../../../shared/http/download-headers.ts';
import { binaryResponse } from '../../../shared/http/openapi-3-1-schema.ts';
import { sniffContentType } from '../file-content-type.ts';
import { oneFile } from './portal-upload.ts';
import { findField } from '../template-snapshot.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import type { SealedValue } from '../../../shared/privacy/personal-data-vault.ts';
import type { Platform } from '../../../shared/app-deps.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { runOnboardingRouteCommand, type OnboardingRouteCommandDeps } from '../onboarding-route-command.ts';
import type { RateLimiter } from '../../../shared/rate-limit/rate-limiter.ts';
import { allResponses, findResponse, responseSchema } from '../../../projections/responses/queries.ts';
import { linkInactive, PIN_HEADER, PortalAccess, type PortalLink } from './portal-access.ts';
import type { PinAttempts } from './portal-pin-attempts.ts';
import {
  LINK_SESSION_IDLE_SECONDS,
  linkSessionId,
  openLinkSession,
  setLinkSessionCookie,
} from './portal-link-sessions.ts';
import { prefersHtml } from '../../web/prefers-html.ts';
import { clientFace, faceClientSchema, faceTeamSchema, portalFaceRoutes, teamFace } from './portal-face.ts';
import { formAttachments, formFileSchema, formSignatureSchema } from './portal-form-view.ts';

export type PortalRouteDeps = Pick<Platform, 'pool' | 'eventStore' | 'clock' | 'vault' | 'readDb'> &
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
  submitted_step_ids: z.array(z.string()).describe('steps submitted, in the order they were'),
  paid_field_ids: z.array(z.string()).describe('payment fields whose payment the team recorded'),
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

const signatureSchema = z.object({
  id: z.string().uuid(),
  field_id: z.string(),
  signer_name: z.string(),
  signer_email: z.string(),
  signer_role: z.literal('client'),
  signed_at: z.string(),
});

export const fileSchema = z.object({
  id: z.string().uuid(),
  field_id: z.string(),
  file_name: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  uploaded_at: z.string(),
});

const tokenParams = z.object({ token: z.string().describe('the client access token (64 hex characters)') });
const fieldParams = tokenParams.extend({ field_id: z.string().describe('a field of the onboarding') });
const fileParams = tokenParams.extend({ file_id: z.string().describe('a file the client uploaded') });
const stepParams = tokenParams.extend({ step_id: z.string().describe('a step of the onboarding') });

const pinHeaders = z
  .object({
    [PIN_HEADER]: z
      .string()
      .optional()
      .describe(
        'the link’s 6-digit PIN, when the link has one and the request carries no link session (POST .../session)',
      ),
  })
  .passthrough();

const answerBody = z
  .object({ value: z.unknown().describe('the answer: any JSON value') })
  .refine((body) => body.value !== undefined, { message: 'value is required', path: ['value'] });

const signatureBody = z.object({
  signer_name: z.string().trim().min(1).max(200),
  signer_email: z.string().trim().toLowerCase().pipe(z.string().email().max(254)),
});

const portalErrors = (extra: Record<number, string> = {}) => ({
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
const opaque = (value: SealedValue) => value as unknown as string;

export async function portalRoutes(
  plain: FastifyInstance,
  {
    context,
    limiter,
    pinAttempts,
    publicUrl,
  }: {
    context: PortalRouteDeps;
    limiter: RateLimiter | null;
    /** The wrong-PIN lock (./portal-pin-attempts.ts); null when RATE_LIMITS=off. */
    pinAttempts: PinAttempts | null;
    /** PUBLIC_URL: an https one makes the link session's cookie Secure. */
    publicUrl: string;
  },
) {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const access = new PortalAccess({
    pool: context.pool,
    eventStore: context.eventStore,
    clock: context.clock,
    limiter,
    pinAttempts,
  });

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
    responses: await allResponses(context.readDb, context.vault, state.id),
    submitted_step_ids: [...state.submitted_steps],
    paid_field_ids: paidFieldIds(state),
    reviews: Object.entries(state.reviews).map(([fieldId, review]) => ({ field_id: fieldId, ...review })),
  });

  const now = () => ({ now: context.clock.now() });

  /** The most bytes read of an upload to the field: its own limit within the service's. */
  function uploadLimit(link: PortalLink, fieldId: string): number {
    const located = findField(link.state.snapshot, fieldId);
    if (!located || located.field.type !== 'file_upload') return MAX_FILE_BYTES;
    return Math.min(MAX_FILE_BYTES, fileConfig(located.field).max_size_bytes);
  }

  await portalFaceRoutes(app, { context, access });

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

  app.post(
    '/onboardings/:token/session',
    {
      schema: {
        tags: ['portal'],
        summary:
          'Open a link session with the PIN: a short-lived HttpOnly cookie, so the form checks the PIN once per visit (records nothing)',
        description: `Checks X-Onboarding-Pin like every portal route (it always checks the PIN, even with a live session) and answers a cookie (HttpOnly, SameSite=Strict, Path=/portal/v1/onboardings/, Secure over https) that the other portal routes of this link accept instead of the PIN until it ends: ${LINK_SESSION_IDLE_SECONDS / 60} minutes after its last request, or at expires_at. A new PIN or a new link (resend) ends it. A link without a PIN needs no session: 200 with expires_at null and no cookie. The answer has Cache-Control: no-store.`,
        security: [],
        params: tokenParams,
        headers: pinHeaders,
        response: {
          200: z.object({
            expires_at: z
              .string()
              .nullable()
              .describe('when the session ends at the latest (ISO 8601); null for a link without a PIN'),
            idle_timeout_seconds: z
              .number()
              .int()
              .describe('the session ends this long after its last request'),
          }),
          ...portalErrors(),
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      // The PIN itself, whatever cookie the request carries.
      const link = await access.open(request.params.token, { pin: request.headers[PIN_HEADER] });
      if (link.state.pin === null)
        return { expires_at: null, idle_timeout_seconds: LINK_SESSION_IDLE_SECONDS };
      const session = await openLinkSession(context.pool, {
        tokenHash: link.tokenHash,
        pinSalt: link.state.pin.salt,
        now: context.clock.now(),
      });
      setLinkSessionCookie(reply, request, { tokenHash: link.tokenHash, id: session.id, publicUrl });
      return { expires_at: session.expiresAt.toISOString(), idle_timeout_seconds: LINK_SESSION_IDLE_SECONDS };
    },
  );

  app.get(
    '/onboardings/:token',
    {
      schema: {
        tags: ['portal'],
        summary:
          'Open the form: the first open after each send records onboarding.started (sent → in_progress)',
        security: [],
        params: tokenParams,
        headers: pinHeaders,
        response: {
          200: z.object({ team: faceTeamSchema, client: faceClientSchema, onboarding: portalOnboarding }),
          ...portalErrors(),
        },
      },
    },
    async (request, reply) => {
      // A browser opening a link of an older email gets the form page, which asks for the PIN.
      if (prefersHtml(request.headers.accept) && request.headers[PIN_HEADER] === undefined) {
        return reply.redirect(`/f/${encodeURIComponent(request.params.token)}`, 303);
      }
      const link = await open(request);
      const outcome = await run(request, link, () => ({
        type: 'OpenLink',
        data: { token_hash: link.tokenHash },
        metadata: now(),
      }));
      const { team_id: teamId, client_id: clientId } = link.state;
      const [team, client] = await Promise.all([
        teamFace(context.pool, teamId),
        clientFace(context.pool, teamId, clientId),
      ]);
      return { team, client: client.client, onboarding: await view(outcome.state) };
    },
  );

  app.put(
    '/onboardings/:token/answers/:field_id',
    {
      schema: {
        tags: ['portal'],
        summary: 'Autosave an answer (a draft response; counts for the 5-minute active-client check)',
        security: [],
        params: fieldParams,
        headers: pinHeaders,
        body: answerBody,
        response: {
          200: z.object({ response: responseSchema }),
          ...portalErrors({
            400: 'Malformed body, or an answer of the wrong shape for its field (code invalid_body; details {field_id, step_id, problem: {code, params}}, the field catalogue’s problem)',
            413: 'Body over 1 MiB (code payload_too_large)',
          }),
        },
      },
    },
    async (request) => {
      const link = await opened(request, await open(request));
      const sealed = await seal(link, JSON.stringify(request.body.value));
      const outcome = await run(request, link, () => ({
        type: 'SaveAnswer',
        data: {
          token_hash: link.tokenHash,
          field_id: request.params.field_id,
          response_id: randomUUID(),
          value: sealed,
          entered_value: request.body.value,
        },
        metadata: now(),
      }));
      const saved = outcome.events.find((event) => event.type === 'answer_saved');
      if (saved?.type !== 'answer_saved') throw new Error('SaveAnswer decided no answer_saved');
      const response = await findResponse(
        context.readDb,
        context.vault,
        link.onboardingId,
        saved.data.response_id,
      );
      return {
        response: response ?? {
          id: saved.data.response_id,
          field_id: saved.data.field_id,
          value: request.body.value,
          status: 'draft' as const,
          rejection_reason: null,
          created_at: saved.data.saved_at,
        },
      };
    },
  );

  app.post(
    '/onboardings/:token/steps/:step_id/submit',
    {
      schema: {
        tags: ['portal'],
        summary:
          'Submit a step: its answers become submitted (response.submitted); the last required step completes the onboarding',
        security: [],
        params: stepParams,
        headers: pinHeaders,
        response: {
          200: z.object({ onboarding: portalOnboarding }),
          ...portalErrors({
            400: 'A field of the step breaks a rule of the field catalogue, a required one without an answer included (code invalid_body; details {field_id, step_id, problem, problems: [{field_id, problem}]}, the first problem names the message)',
          }),
        },
      },
    },
    async (request) => {
      const link = await opened(request, await open(request));
      const outcome = await run(request, link, async (state) => ({
        type: 'SubmitStep',
        data: {
          token_hash: link.tokenHash,
          step_id: request.params.step_id,
          values: await enteredValues(state),
        },
        metadata: now(),
      }));
      return { onboarding: await view(outcome.state) };
    },
  );

  app.post(
    '/onboardings/:token/fields/:field_id/signature',
    {
      schema: {
        tags: ['portal'],
        summary: 'Sign a signature field (signature.signed with signer_role client)',
        security: [],
        params: fieldParams,
        headers: pinHeaders,
        body: signatureBody,
        response: {
          201: z.object({ signature: signatureSchema }),
          ...portalErrors({ 413: 'Body over 1 MiB (code payload_too_large)' }),
        },
      },
    },
    async (request, reply) => {
      const link = await opened(request, await open(request));
      const { signer_name: name, signer_email: email } = request.body;
      const [sealedName, sealedEmail] = [await seal(link, name), await seal(link, email)];
      const signatureId = randomUUID();
      const outcome = await run(request, link, () => ({
        type: 'SignField',
        data: {
          field_id: request.params.field_id,
          signature_id: signatureId,
          signer_name: opaque(sealedName),
          signer_email: opaque(sealedEmail),
          signer: { role: 'client', token_hash: link.tokenHash },
          entered: { signer_name: name, signer_email: email },
        },
        metadata: now(),
      }));
      const signed = outcome.events.find((event) => event.type === 'signature.signed');
      if (signed?.type !== 'signature.signed') throw new Error('SignField decided no signature.signed');
      return reply.status(201).send({
        signature: {
          id: signatureId,
          field_id: signed.data.field_id,
          signer_name: name,
          signer_email: email,
          signer_role: 'client' as const,
          signed_at: signed.data.signed_at,
        },
      });
    },
  );

  app.post(
    '/onboardings/:token/fields/:field_id/files',
    {
      schema: {
        tags: ['portal'],
        summary: `Upload a file to a file field (multipart/form-data, one file within the field's size limit, at most ${MAX_FILE_BYTES / 1024 / 1024} MiB; file.uploaded). The content type is read from the file's bytes`,
        security: [],
        consumes: ['multipart/form-data'],
        params: fieldParams,
        headers: pinHeaders,
        response: {
          201: z.object({ file: fileSchema }),
          ...portalErrors({
            400: 'Malformed body (code invalid_body); a file type the field does not accept or one file too many: details.problem.code file_type_not_accepted or too_many_files',
            413: "File over the field's size limit (code payload_too_large)",
          }),
        },
      },
    },
    async (request, reply) => {
      const link = await opened(request, await open(request));
      if (!request.isMultipart()) {
        throw codedError(400, 'invalid_body', 'Send the file as multipart/form-data');
      }
      const maxBytes = uploadLimit(link, request.params.field_id);
      const { content, filename } = await oneFile(request, maxBytes);
      const fileName = cleanFileName(filename);
      // What the browser says (part.mimetype) is not trusted: the bytes tell.
      const contentType = await sniffContentType(content);
      const sealedName = await seal(link, fileName);
      const fileId = randomUUID();
      const uploadedAt = context.clock.now();
      const outcome = await run(
        request,
        link,
        () => ({
          type: 'UploadFile',
          data: {
            token_hash: link.tokenHash,
            field_id: request.params.field_id,
            file_id: fileId,
            file_name: opaque(sealedName),
            content_type: contentType,
            size_bytes: content.length,
          },
          metadata: { now: uploadedAt },
        }),
        {
          async beforeAppend({ state }, tx) {
            if (state.status === 'absent') return;
            await saveOnboardingFile(tx, {
              id: fileId,
              onboarding_id: state.id,
              team_id: state.team_id,
              client_id: state.client_id,
              field_id: request.params.field_id,
              content_type: contentType,
              content,
              created_at: uploadedAt,
            });
          },
        },
      );
      const uploaded = outcome.events.find((event) => event.type === 'file.uploaded');
      if (uploaded?.type !== 'file.uploaded') throw new Error('UploadFile decided no file.uploaded');
      return reply.status(201).send({
        file: {
          id: fileId,
          field_id: uploaded.data.field_id,
          file_name: fileName,
          content_type: contentType,
          size_bytes: content.length,
          uploaded_at: uploaded.data.uploaded_at,
        },
      });
    },
  );
  app.get(
    '/onboardings/:token/files/:file_id',
    {
      schema: {
        tags: ['portal'],
        summary:
          'Download an uploaded file: its bytes with the content type read from them at upload, as an attachment (Content-Disposition with the file name in UTF-8, X-Content-Type-Options: nosniff)',
        security: [],
        params: fileParams,
        headers: pinHeaders,
        response: {
          200: binaryResponse("The file's bytes, with the content type read from them at upload"),
          ...portalErrors({
            404: 'Unknown, deactivated or expired link (code link_inactive); unknown file (file_not_found)',
          }),
        },
      },
    },
    async (request, reply) => {
      const link = await open(request);
      const file = await readOnboardingFile(
        context.pool,
        context.vault,
        link.onboardingId,
        request.params.file_id,
      );
      if (!file) throw codedError(404, 'file_not_found', 'File not found');
      const { files } = await formAttachments(context, link.onboardingId);
      const fileName = files.find((listed) => listed.id === request.params.file_id.toLowerCase())?.file_name;
      return reply
        .headers(downloadHeaders(fileName ?? FALLBACK_FILE_NAME))
        .type(file.content_type)
        .send(file.content);
    },
  );
  app.delete(
    '/onboardings/:token/files/:file_id',
    {
      schema: {
        tags: ['portal'],
        summary:
          'Remove an uploaded file while answering, before its step is submitted; the field is no longer answered once no file is left',
        security: [],
        params: fileParams,
        headers: pinHeaders,
        response: {
          200: z.object({ success: z.literal(true) }),
          ...portalErrors({
            404: 'Unknown, deactivated or expired link (code link_inactive); unknown file (file_not_found)',
            409: 'Not while the onboarding is in this status, nor once the file’s step is submitted (code invalid_state)',
          }),
        },
      },
    },
    async (request) => {
      const link = await opened(request, await open(request));
      await run(
        request,
        link,
        () => ({
          type: 'RemoveFile',
          data: { token_hash: link.tokenHash, file_id: request.params.file_id },
          metadata: now(),
        }),
        {
          async beforeAppend({ state, events }, tx) {
            if (state.status === 'absent') return;
            for (const event of events) {
              if (event.type === 'file_removed') await deleteOnboardingFile(tx, state.id, event.data.file_id);
            }
          },
        },
      );
      return { success: true as const };
    },
  );
}

/** Payment fields fulfilled by a recorded payment (payment.succeeded), for the page's "Payment received". */
function paidFieldIds(state: Onboarding): string[] {
  const fulfilled = new Set(state.fulfilled_fields);
  return state.snapshot.steps.flatMap((step) =>
    step.fields
      .filter((field) => field.type === 'payment' && fulfilled.has(field.id))
      .map((field) => field.id),
  );
}
