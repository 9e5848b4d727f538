import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { codedError } from '../../shared/http/api-error.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * onRequest hook of every operator route (`Authorization: Bearer <ADMIN_TOKEN>`):
 * - ADMIN_TOKEN unset: 404, the same answer as an unknown path (the operator API does
 *   not exist);
 * - header missing, not Bearer, or another token: 401 code `admin_token_invalid`.
 */
export function operatorTokenCheck(token: string | undefined) {
  const expected = token === undefined ? undefined : digest(token);
  return async function checkOperatorToken(request: FastifyRequest, reply: FastifyReply) {
    if (expected === undefined) {
      reply.callNotFound();
      return reply;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      throw codedError(401, 'admin_token_invalid', 'Invalid or missing admin token');
    }
  };
}
