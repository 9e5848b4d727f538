import type { FastifyReply } from 'fastify';
import { codedError } from '../../shared/http/api-error.ts';
import { downloadHeaders } from '../../shared/http/download-headers.ts';
import { FALLBACK_FILE_NAME, readOnboardingFile } from './onboarding-files.ts';
import { formAttachments, type FormViewDeps } from './portal/portal-form-view.ts';

/**
 * Answers an uploaded file as an attachment (the portal's and the workspace's download):
 * its bytes with the content type read from them at upload, under the name the form lists
 * it by; 404 file_not_found when it is unknown, removed or an erased client's.
 */
export async function sendOnboardingFile(
  context: FormViewDeps,
  reply: FastifyReply,
  onboardingId: string,
  fileId: string,
) {
  const file = await readOnboardingFile(context.pool, context.vault, onboardingId, fileId);
  if (!file) throw codedError(404, 'file_not_found', 'File not found');
  const { files } = await formAttachments(context, onboardingId);
  const fileName = files.find((listed) => listed.id === fileId.toLowerCase())?.file_name;
  return reply
    .headers(downloadHeaders(fileName ?? FALLBACK_FILE_NAME))
    .type(file.content_type)
    .send(file.content);
}
