import { createApiClient, type Outcome } from '../../shared/api/client.ts';
import type { components, paths } from '../../shared/api/openapi.d.ts';

export type { Outcome };

type Json<R> = R extends { content: { 'application/json': infer A } } ? A : never;
type Responses<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R }
  ? R
  : never;

/**
 * The success answer of an operation (its 200, else its 201 or 202) as the generated OpenAPI
 * types say it, so a server schema change fails the web build where the answer is read.
 */
export type ApiAnswer<P extends keyof paths, M extends keyof paths[P]> =
  Responses<P, M> extends { 200: infer S }
    ? Json<S>
    : Responses<P, M> extends { 201: infer S }
      ? Json<S>
      : Responses<P, M> extends { 202: infer S }
        ? Json<S>
        : never;

/** The JSON body of an operation as the generated OpenAPI types say it. */
export type ApiBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: infer B;
}
  ? Json<NonNullable<B>>
  : never;

/** A member of the team (GET /workspace/v1/members). */
export type Member = components['schemas']['WorkspaceMember'];
/** Who is signed in (GET /workspace/v1/me, and the answer of signing in). */
export type SignedIn = components['schemas']['WorkspaceSession'];

/** Owners and admins manage the team (integrations, webhooks, activity, automations, settings). */
export const isManager = (me: SignedIn) => me.role === 'owner' || me.role === 'admin';

const BASE = '/workspace/v1';
let csrfToken = '';

/** Remembers the CSRF token of the session (from GET /me, sign-in, sign-up, accepting an invitation). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

let sessionEnded: (() => void) | null = null;

/** Called when a request of a signed-in screen answers session_required (the session ended elsewhere). */
export function onSessionEnded(handler: (() => void) | null): void {
  sessionEnded = handler;
}

/**
 * The workspace's typed client of the API (../../shared/api/client.ts): it sends the
 * session's CSRF token and reports the session's end (except for GET /me, which asks whether
 * there is one). A typed call reads `call(api.GET('/workspace/v1/members'))` with the
 * shared client's `call`.
 */
export const api = createApiClient({
  csrfToken: () => csrfToken,
  onSessionEnded: (path) => {
    if (path !== `${BASE}/me`) sessionEnded?.();
  },
});

/** A fresh Idempotency-Key for one creation attempt. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
