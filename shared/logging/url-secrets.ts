/**
 * Secrets that travel in URL paths (capability tokens of 64 hex characters) stay out of
 * the logs: a path segment that is exactly 64 hex characters is written as `[secret]`.
 * The query string is dropped from logged URLs, since its values are the caller's to choose.
 */

const SECRET_SEGMENT = /^[0-9a-fA-F]{64}$/;
export const SECRET_MARK = '[secret]';

/** `url` (path and query) with every 64-hex path segment replaced and the query left out. */
export function redactUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path
    .split('/')
    .map((segment) => (SECRET_SEGMENT.test(segment) ? SECRET_MARK : segment))
    .join('/');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The request as logged (Fastify's own fields), its URL redacted. */
export function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
