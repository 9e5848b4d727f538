import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionError } from '../db/connection-errors.ts';
import { ApiError } from './api-error.ts';

/** Seconds a client is asked to wait when the database cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/**
 * Maps every thrown error to the spec's error body. PostgreSQL out of reach (down,
 * restarting, a connection lost in flight, no connection in time) is 503
 * `service_unavailable`, retryable; other unknown errors are 500 and retryable.
 */
export function handleError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value);
    return reply.status(error.status).send(error.body(request.id));
  }
  if (isConnectionError(error)) {
    // The error names the connection only (no query, no row data).
    request.log.warn({ error: describe(error) }, 'database unavailable');
    return reply
      .status(503)
      .header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
      .send(
        new ApiError(503, 'Service unavailable; try again', {
          code: 'service_unavailable',
          retryable: true,
        }).body(request.id),
      );
  }
  if (error.statusCode === 413) {
    return reply
      .status(413)
      .send(new ApiError(413, 'Request body too large', { code: 'payload_too_large' }).body(request.id));
  }
  if (error.statusCode === 415) {
    return reply
      .status(415)
      .send(
        new ApiError(415, 'Content-Type must be application/json', { code: 'unsupported_media_type' }).body(
          request.id,
        ),
      );
  }
  if (error.validation || (error.statusCode === 400 && error.code?.startsWith('FST_ERR_CTP'))) {
    // A body that does not parse (FST_ERR_CTP_*) fails as a whole.
    const details = error.validation
      ? validationDetails(error)
      : { issues: [{ path: 'body', message: error.message }] };
    const extra = { details };
    return reply
      .status(400)
      .send(new ApiError(400, 'Invalid request body', { code: 'invalid_body', extra }).body(request.id));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Any other request fastify refuses itself (such as a QUERY without a Content-Type):
    // the client's fault, so it keeps fastify's 4xx status instead of becoming a 500.
    return reply
      .status(error.statusCode)
      .send(new ApiError(error.statusCode, 'Invalid request', { code: 'invalid_body' }).body(request.id));
  }
  request.log.error({ err: error }, 'request failed');
  const status = error.statusCode && error.statusCode >= 500 ? error.statusCode : 500;
  return reply
    .status(status)
    .send(
      new ApiError(status, 'Internal server error', { code: 'internal_error', retryable: true }).body(
        request.id,
      ),
    );
}

function describe(error: unknown): { code?: unknown; message?: unknown } {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code, message };
}

/**
 * Where a failed validation went wrong, as `details.issues` beside the spec's unchanged
 * `error` text: each issue's path (`body/pin`, `querystring/status`, `body` for the
 * whole body) and message.
 */
export function validationDetails(error: Pick<FastifyError, 'validation' | 'validationContext'>): {
  issues: { path: string; message: string }[];
} {
  return {
    issues: (error.validation ?? []).map((issue) => ({
      path: `${error.validationContext ?? ''}${issue.instancePath}`.replace(/\/$/, ''),
      message: issue.message ?? 'invalid',
    })),
  };
}
