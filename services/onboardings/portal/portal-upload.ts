import type { FastifyRequest } from 'fastify';
import { codedError } from '../../../shared/http/api-error.ts';
import { sizeText } from '../decider/index.ts';

/**
 * The one file of an upload (POST /portal/v1/onboardings/:token/fields/:field_id/files),
 * read from the multipart body whole: 400 invalid_body in words when the body holds no
 * file, an empty file (0 bytes) or a second file (one file per request: the second is
 * refused, never dropped); 413 payload_too_large past `maxBytes`. Nothing is stored
 * before the whole body has been read. Other (non-file) parts are ignored.
 */
export async function oneFile(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ content: Buffer; filename: string }> {
  let found: { content: Buffer; filename: string } | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes } })) {
      if (part.type !== 'file') continue;
      if (found) {
        part.file.resume();
        throw codedError(
          400,
          'invalid_body',
          'Send one file per request: this upload holds more than one file, and none was kept',
          { details: { problem: { code: 'one_file_per_request' } } },
        );
      }
      found = { content: await part.toBuffer(), filename: part.filename };
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw codedError(413, 'payload_too_large', `File larger than ${sizeText(maxBytes)}`);
    }
    throw error;
  }
  if (!found) throw codedError(400, 'invalid_body', 'A file is required');
  if (found.content.length === 0) {
    throw codedError(400, 'invalid_body', 'The file is empty (0 bytes): choose a file that has content', {
      details: { problem: { code: 'empty_file' } },
    });
  }
  return found;
}
