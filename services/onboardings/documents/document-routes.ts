import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Platform } from '../../../shared/app-deps.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { downloadHeaders } from '../../../shared/http/download-headers.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { binaryResponse } from '../../../shared/http/openapi-3-1-schema.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import { zodApp } from '../../../shared/http/zod-app.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { ERROR_TEXTS } from '../decider/index.ts';
import { teamOnboardingEvents } from '../onboarding-stream-view.ts';
import { portalSchema, tokenParams, type PortalRequests } from '../portal/portal-requests.ts';
import { latestDocument } from './document-store.ts';

/*
 * The signed PDF of a completed onboarding, as an attachment (nosniff, no-store):
 *
 *   GET /workspace/v1/onboardings/:onboarding_id/document   the team (permission answers.read)
 *   GET /portal/v1/onboardings/:token/document               the client (the link's PIN session respected)
 *
 * 404 document_not_found until the documents pass has made it (the portal's form view says
 * `document_ready`), and for an erased client's.
 */

const PDF_DESCRIPTION =
  'The signed PDF of the latest completion (every step and answer, file names, payments, signatures, and an audit page with the signature evidence and the event times); header X-Document-Sha256: its SHA-256, as recorded in onboarding_document_rendered';

const notReady = () => codedError(404, 'document_not_found', ERROR_TEXTS.document_not_found);

/** A file name for the document: the form's name without what a file name cannot hold. */
export function documentFileName(templateName: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = templateName.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, ' ').trim() || 'onboarding';
  return `${clean}.pdf`;
}

async function sendDocument(
  context: Pick<Platform, 'pool' | 'vault'>,
  reply: FastifyReply,
  onboardingId: string,
  templateName: string,
) {
  const document = await latestDocument(context.pool, context.vault, onboardingId);
  if (!document) throw notReady();
  return reply
    .headers({ ...downloadHeaders(documentFileName(templateName)), 'X-Document-Sha256': document.sha256 })
    .type('application/pdf')
    .send(document.content);
}

/** GET /workspace/v1/onboardings/:onboarding_id/document */
export async function workspaceDocumentRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  const app = zodApp(plain);
  app.get(
    '/onboardings/:onboarding_id/document',
    {
      config: { workspace: { action: 'answers.read' } },
      schema: workspaceSchema(
        'workspaceDownloadDocument',
        'Download the signed PDF of a completed onboarding, as an attachment (nosniff, no-store)',
        { params: z.object({ onboarding_id: z.string().uuid() }) },
        {
          200: binaryResponse(PDF_DESCRIPTION),
          404: coded(
            'Unknown onboarding, another team’s, or its client was erased (code target_unavailable); no signed PDF yet (document_not_found)',
          ),
        },
      ),
    },
    async (request, reply) => {
      const { onboarding_id: onboardingId } = request.params;
      const events = await teamOnboardingEvents(context, request, onboardingId);
      const created = events.find((event) => event.type === 'onboarding_created')?.data as
        { template_snapshot?: { name?: string } } | undefined;
      return sendDocument(context, reply, onboardingId, created?.template_snapshot?.name ?? 'onboarding');
    },
  );
}

/** GET /portal/v1/onboardings/:token/document */
export function portalDocumentRoutes(plain: FastifyInstance, { context, open }: PortalRequests) {
  const app = zodApp(plain);
  app.get(
    '/onboardings/:token/document',
    {
      schema: portalSchema(
        {
          operationId: 'portalDownloadDocument',
          summary:
            'Download the signed PDF of the completed onboarding (the form view says document_ready), as an attachment (nosniff, no-store)',
        },
        { params: tokenParams },
        { 200: binaryResponse(PDF_DESCRIPTION) },
        {
          404: 'Unknown, deactivated or expired link (code link_inactive); no signed PDF yet (document_not_found)',
        },
      ),
    },
    async (request, reply) => {
      const link = await open(request);
      return sendDocument(context, reply, link.onboardingId, link.state.snapshot.name);
    },
  );
}
