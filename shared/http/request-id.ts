import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A caller's X-Request-Id is kept when it is 1 to 128 visible ASCII characters (no spaces). */
export const WELL_FORMED_REQUEST_ID = /^[!-~]{1,128}$/;

/**
 * Values shaped like the service's own secrets: 32 random bytes as 64 hex digits (client
 * links, workspace sessions and their emailed tokens) and the prefixes of API keys and
 * signing secrets. Request ids are logged, so a caller that sends one of its secrets as its
 * request id must not get it written to the log.
 */
const SECRET_SHAPED = /^(?:[0-9a-f]{64}|cos_.*|whsec_.*)$/i;

/**
 * The id of a request: the caller's X-Request-Id when well formed, so one id follows a
 * request through the caller's logs and ours; otherwise (absent, too long, spaces,
 * non-ASCII, or shaped like a secret) a new UUID, so a hostile value or a secret never
 * reaches a log line or an error body.
 */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED_REQUEST_ID.test(given) && !SECRET_SHAPED.test(given)
    ? given
    : randomUUID();
}
