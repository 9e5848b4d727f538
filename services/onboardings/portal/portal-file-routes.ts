import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type ZodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import {
  cleanFileName,
  deleteOnboardingFile,
  MAX_FILE_BYTES,
  saveOnboardingFile,
} from '../onboarding-files.ts';
import { binaryResponse } from '../../../shared/http/openapi-3-1-schema.ts';
import { sniffContentType } from '../file-content-type.ts';
import { oneFile } from './portal-upload.ts';
import { decidedEvent } from '../onboarding-route-command.ts';
import { sendOnboardingFile } from '../file-download.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import {
  portalSchema,
  type PortalRequests,
  fieldParams,
  fileParams,
  fileSchema,
  opaque,
} from './portal-requests.ts';

/* The files of file fields through a link: upload, download, remove (../onboarding-files.ts). */

/** The documented body of an upload: the route reads it as a stream, so it has no `body` schema to validate. */
const UPLOAD_BODY = {
  type: 'object',
  required: ['file'],
  properties: {
    file: {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: 'The file (one per request); its content type is read from its bytes.',
    },
  },
};

const FILE_NOT_FOUND =
  'Unknown, deactivated or expired link (code link_inactive); unknown file (file_not_found)';

/** POST a file to a file field (multipart, one file, its type read from its bytes). */
function uploadFileRoute(app: ZodApp, { context, run, seal, uploadLimit, answering }: PortalRequests) {
  app.post(
    '/onboardings/:token/fields/:field_id/files',
    {
      config: { multipartBody: UPLOAD_BODY },
      schema: portalSchema(
        {
          operationId: 'portalUploadFile',
          summary: `Upload a file to a file field (multipart/form-data, one file within the field's size limit, at most ${MAX_FILE_BYTES / 1024 / 1024} MiB; file.uploaded). The content type is read from the file's bytes`,
          description: 'A multipart/form-data body with one file. 201; file.uploaded.',
        },
        { consumes: ['multipart/form-data'], params: fieldParams },
        { 201: z.object({ file: fileSchema }) },
        {
          400: 'Malformed body (code invalid_body); a file type the field does not accept or one file too many: details.problem.code file_type_not_accepted or too_many_files',
          413: "File over the field's size limit (code payload_too_large)",
        },
      ),
    },
    async (request, reply) => {
      const link = await answering(request);
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
      const uploaded = decidedEvent(outcome, 'file.uploaded', 'UploadFile');
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
}

/** GET an uploaded file as an attachment. */
function downloadFileRoute(app: ZodApp, { context, open }: PortalRequests) {
  app.get(
    '/onboardings/:token/files/:file_id',
    {
      schema: portalSchema(
        {
          operationId: 'portalDownloadFile',
          summary:
            'Download an uploaded file: its bytes with the content type read from them at upload, as an attachment (Content-Disposition with the file name in UTF-8, X-Content-Type-Options: nosniff)',
        },
        { params: fileParams },
        { 200: binaryResponse("The file's bytes, with the content type read from them at upload") },
        { 404: FILE_NOT_FOUND },
      ),
    },
    async (request, reply) => {
      const link = await open(request);
      return sendOnboardingFile(context, reply, link.onboardingId, request.params.file_id);
    },
  );
}

/** DELETE an uploaded file before its step is submitted. */
function removeFileRoute(app: ZodApp, { run, now, answering }: PortalRequests) {
  app.delete(
    '/onboardings/:token/files/:file_id',
    {
      schema: portalSchema(
        {
          operationId: 'portalDeleteFile',
          summary:
            'Remove an uploaded file while answering, before its step is submitted; the field is no longer answered once no file is left',
        },
        { params: fileParams },
        { 200: z.object({ success: z.literal(true) }) },
        {
          404: FILE_NOT_FOUND,
          409: 'Not while the onboarding is in this status, nor once the file’s step is submitted (code invalid_state)',
        },
      ),
    },
    async (request) => {
      const link = await answering(request);
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

/** The client's files, in the order the document lists them. */
export function portalFileRoutes(app: FastifyInstance, portal: PortalRequests) {
  uploadFileRoute(app, portal);
  downloadFileRoute(app, portal);
  removeFileRoute(app, portal);
}
