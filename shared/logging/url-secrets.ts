/**
 * Secrets that travel in URLs (client tokens in paths, a PIN or a reset token in a query)
 * stay out of the logs. A request is logged by its route pattern (`/f/:token`), never by
 * the URL it came with; with the request id (`reqId` on every line) that is enough to find
 * the request again. A request that matches no route is logged as UNMATCHED_ROUTE: its
 * path is the caller's text and may hold anything.
 *
 * `redactUrl` remains for URLs that are logged elsewhere: a path segment that is exactly
 * 64 hex characters is written as `[secret]` and the query string is dropped.
 */

const SECRET_SEGMENT = /^[0-9a-fA-F]{64}$/;
export const SECRET_MARK = '[secret]';
export const UNMATCHED_ROUTE = '(no route)';

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
  routeOptions?: { url?: string };
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The request as logged: Fastify's own fields, with the route pattern instead of the URL. */
export function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    route: request.routeOptions?.url || UNMATCHED_ROUTE,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
