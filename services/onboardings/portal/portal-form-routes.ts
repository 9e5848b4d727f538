import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type ZodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { findResponse, responseSchema } from '../../../projections/responses/queries.ts';
import { PIN_HEADER, type PortalLink } from './portal-access.ts';
import { decidedEvent } from '../onboarding-route-command.ts';
import { prefersHtml } from '../../web/prefers-html.ts';
import { clientFace, faceClientSchema, faceTeamSchema, teamFace } from './portal-face.ts';
import {
  portalSchema,
  type PortalRequests,
  answerBody,
  fieldParams,
  opaque,
  portalOnboarding,
  signatureBody,
  signatureSchema,
  stepParams,
  tokenParams,
} from './portal-requests.ts';
import { inviteeEmail, signingEvidence } from './portal-signing.ts';
import { prefillAnswers } from './portal-prefill.ts';
import { findClient } from '../../../projections/clients/queries.ts';

/* The client's form through a link: open it, autosave answers, submit steps, sign. */

/** GET the form: the first open after each send records onboarding.started. */
function openFormRoute(app: ZodApp, portal: PortalRequests) {
  const { context, open, run, view, now } = portal;
  const signerEmailOf = (link: PortalLink) => inviteeEmail(portal, link).catch(() => null);
  app.get(
    '/onboardings/:token',
    {
      schema: portalSchema(
        {
          operationId: 'portalOpenOnboarding',
          summary:
            'Open the form: the first open after each send records onboarding.started (sent → in_progress)',
          description:
            '200 `onboarding` (`id`, `status`, `progress_pct`, `due_date`, `template_snapshot`, `responses`); the first open after each send records onboarding.started and moves a sent onboarding to in_progress.',
        },
        { params: tokenParams },
        { 200: z.object({ team: faceTeamSchema, client: faceClientSchema, onboarding: portalOnboarding }) },
      ),
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
      const seen = await view(outcome.state);
      const prefill = prefillAnswers(
        outcome.state.snapshot,
        new Set(seen.responses.map((response) => response.field_id)),
        await findClient(context.readPool, context.vault, teamId, clientId),
      );
      const onboarding = { ...seen, signer_email: await signerEmailOf(link), prefill };
      return { team, client: client.client, onboarding };
    },
  );
}

/** PUT an answer: the autosave of a draft response. */
function saveAnswerRoute(app: ZodApp, { context, run, seal, now, answering }: PortalRequests) {
  app.put(
    '/onboardings/:token/answers/:field_id',
    {
      schema: portalSchema(
        {
          operationId: 'portalSaveAnswer',
          summary: 'Autosave an answer (a draft response; counts for the 5-minute active-client check)',
          description:
            '200 `response` with status `draft` (autosave; counts as a saved answer for the active-client check).',
        },
        { params: fieldParams, body: answerBody },
        { 200: z.object({ response: responseSchema }) },
        {
          400: 'Malformed body, or an answer of the wrong shape for its field (code invalid_body; details {field_id, step_id, problem: {code, params}}, the field catalogue’s problem)',
          413: 'Body over 1 MiB (code payload_too_large)',
        },
      ),
    },
    async (request) => {
      const link = await answering(request);
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
      const saved = decidedEvent(outcome, 'answer_saved', 'SaveAnswer');
      const response = await findResponse(
        context.readPool,
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
}

/** POST a step's submit. */
function submitStepRoute(app: ZodApp, { run, enteredValues, view, now, answering }: PortalRequests) {
  app.post(
    '/onboardings/:token/steps/:step_id/submit',
    {
      schema: portalSchema(
        {
          operationId: 'portalSubmitStep',
          summary:
            'Submit a step: its answers become submitted (response.submitted); the last required step completes the onboarding',
          description:
            "200 `onboarding`; the step's answers become `submitted`; one response.submitted event; when every required step is submitted the onboarding is `completed` with progress_pct 100 and onboarding.completed is recorded; a required field without an answer: 400 code `invalid_body`.",
        },
        { params: stepParams },
        { 200: z.object({ onboarding: portalOnboarding }) },
        {
          400: 'A field of the step breaks a rule of the field catalogue, a required one without an answer included (code invalid_body; details {field_id, step_id, problem, problems: [{field_id, problem}]}, the first problem names the message)',
        },
      ),
    },
    async (request) => {
      const link = await answering(request);
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
}

/** POST a signature of a signature field. */
function signFieldRoute(app: ZodApp, portal: PortalRequests) {
  const { run, seal, now, answering } = portal;
  app.post(
    '/onboardings/:token/fields/:field_id/signature',
    {
      schema: portalSchema(
        {
          operationId: 'portalSignField',
          summary: 'Sign a signature field (signature.signed with signer_role client)',
          description:
            "201; signature.signed with signer_role `client`. The signer is the invitee: the email recorded (and answered) is the client's, whatever `signer_email` holds; the signature records the IP address, user agent, consent text and a SHA-256 of the answers signed (docs/decisions/0079).",
        },
        { params: fieldParams, body: signatureBody },
        { 201: z.object({ signature: signatureSchema }) },
        { 413: 'Body over 1 MiB (code payload_too_large)' },
      ),
    },
    async (request, reply) => {
      const link = await answering(request);
      const name = request.body.signer_name;
      const email = await inviteeEmail(portal, link);
      const evidence = await signingEvidence(portal, request, link);
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
          evidence,
        },
        metadata: now(),
      }));
      const signed = decidedEvent(outcome, 'signature.signed', 'SignField');
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
}

/** The form and its answers, in the order the document lists them. */
export function portalFormRoutes(app: FastifyInstance, portal: PortalRequests) {
  openFormRoute(app, portal);
  saveAnswerRoute(app, portal);
  submitStepRoute(app, portal);
  signFieldRoute(app, portal);
}
