/**
 * Errors that mean "PostgreSQL cannot be reached right now", not "this request is wrong":
 * the server is down, restarting or shutting down, a backend was terminated, the
 * connection broke, or no connection could be had in time. The API answers them with 503
 * (retryable) and background loops back off and try again.
 *
 * The error itself, or any error in its `cause` chain (pg-pool wraps the connect
 * timeout) or inside an AggregateError (Node's connect to several
 * addresses), is looked at.
 */

/** Node's socket errors of a connection that could not be made or broke. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: 57P01 admin_shutdown (pg_terminate_backend, fast shutdown), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, recovering),
 * 53300 too_many_connections; class 08 is every connection exception.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** pg and pg-pool say these in words only. */
const MESSAGES = [
  /connection terminated/i, // unexpectedly, or due to connection timeout
  /timeout exceeded when trying to connect/i,
  /not queryable/i, // a client that has had a connection error, or was closed
  /cannot use a pool after calling end/i,
];

const MAX_DEPTH = 8;

export function isConnectionError(error: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || typeof error !== 'object' || error === null) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isConnectionError(inner, depth + 1))) return true;
  return cause !== undefined && isConnectionError(cause, depth + 1);
}
