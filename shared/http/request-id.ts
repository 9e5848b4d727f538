import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A caller's X-Request-Id is kept when it is 1 to 128 visible ASCII characters (no spaces). */
export const WELL_FORMED_REQUEST_ID = /^[!-~]{1,128}$/;

/**
 * The id of a request: the caller's X-Request-Id when well formed, so one id follows a
 * request through the caller's logs and ours; otherwise (absent, too long, spaces or
 * non-ASCII) a new UUID, so a hostile value never reaches a log line or an error body.
 */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID();
}
