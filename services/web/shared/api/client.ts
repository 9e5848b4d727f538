/**
 * The web apps' one HTTP client: openapi-fetch over the types generated from the service's
 * OpenAPI document (./openapi.d.ts, written by `npm run generate:api-types`), so a path, a
 * parameter, a body or an answer the server changes fails the web build.
 *
 *   const api = createApiClient({ csrfToken: () => token, onSessionEnded: () => showSignIn() });
 *   const answer = await call(api.PATCH('/workspace/v1/members/{member_id}', {
 *     params: { path: { member_id: id } },
 *     body: { role },
 *   }));
 *   if (answer.ok) show(answer.data);
 *   else explain(answer.problem); // { status, code, message, details, retryAfterSeconds }
 *
 * `call` never throws: no answer (offline, a body that is not JSON) is a problem with status
 * 0 and code `network`; a refusal carries the API's code, message and details and the
 * Retry-After in seconds. The client sends the session's CSRF token with every request that
 * is not a GET, and tells `onSessionEnded` when an answer says session_required (the session
 * ended elsewhere), both here in one place.
 */
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, paths } from './openapi.d.ts';

export type { components, paths };
export type ApiClient = Client<paths>;

/** An answer that is not a success; status 0 when there was no answer. */
export interface Problem {
  status: number;
  code: string;
  message: string;
  /** The error body's `details` (e.g. the answer problems of a refused step), else null. */
  details: unknown;
  retryAfterSeconds: number | null;
}

export type Outcome<T> = { ok: true; status: number; data: T } | { ok: false; problem: Problem };

export interface ApiClientOptions extends ClientOptions {
  /** The session's CSRF token, sent as X-CSRF-Token with every request that is not a GET. */
  csrfToken?: () => string;
  /** Told when an answer's code is session_required; `schemaPath` is the operation's path. */
  onSessionEnded?: (schemaPath: string) => void;
}

/** Seconds of a Retry-After header (a number of seconds or an HTTP date); null without one. */
export function retryAfterSeconds(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds > 0 ? seconds : null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

type ErrorBody = { code?: unknown; message?: unknown; error?: unknown; details?: unknown };

/** The problem of a refused request from its status, its body (parsed JSON or text) and Retry-After. */
export function problemOf(status: number, body: unknown, retryAfter: string | null): Problem {
  const error: ErrorBody = body && typeof body === 'object' ? (body as ErrorBody) : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    status,
    code: text(error.code) ?? `http_${status}`,
    message: text(error.message) ?? text(error.error) ?? '',
    details: error.details && typeof error.details === 'object' ? error.details : null,
    retryAfterSeconds: retryAfterSeconds(retryAfter),
  };
}

/** The problem of a request that got no answer. */
export const NO_ANSWER: Problem = Object.freeze({
  status: 0,
  code: 'network',
  message: '',
  details: null,
  retryAfterSeconds: null,
});

/** A typed client of the service's APIs (paths in full: /portal/v1/..., /workspace/v1/...). */
export function createApiClient({ csrfToken, onSessionEnded, ...options }: ApiClientOptions = {}): ApiClient {
  const client = createClient<paths>({
    credentials: 'same-origin',
    ...options,
    headers: { Accept: 'application/json', ...(options.headers as Record<string, string>) },
  });
  const session: Middleware = {
    onRequest({ request }) {
      const token = csrfToken?.();
      if (request.method !== 'GET' && token) request.headers.set('X-CSRF-Token', token);
      return request;
    },
    async onResponse({ response, schemaPath }) {
      if (response.ok || !onSessionEnded) return undefined;
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => null);
      if ((body as ErrorBody | null)?.code === 'session_required') onSessionEnded(schemaPath);
      return undefined;
    },
  };
  client.use(session);
  return client;
}

type Answer = { data?: unknown; error?: unknown; response: Response };

/** The outcome of one request of the client; never throws. */
export async function call<A extends Answer>(
  request: Promise<A>,
): Promise<Outcome<Exclude<A['data'], undefined>>> {
  let answer: A;
  try {
    answer = await request;
  } catch {
    return { ok: false, problem: NO_ANSWER };
  }
  const { response } = answer;
  if (response.ok) {
    return { ok: true, status: response.status, data: answer.data as Exclude<A['data'], undefined> };
  }
  return {
    ok: false,
    problem: problemOf(response.status, answer.error, response.headers.get('Retry-After')),
  };
}
