import { call as settle, createApiClient } from '../../shared/api/client.ts';
import type { Problem } from './problems.ts';
import type { MemberRole } from '../../../access/contract/roles.ts';

/** The workspace API's answers the pages use. */
export interface Member {
  id: string;
  name: string;
  email: string;
  role: Role;
}
export type Role = MemberRole;
/** One of the team's own templates, to choose from. */
export interface TemplateChoice {
  id: string;
  name: string;
}
export interface SignedIn {
  member: Member;
  team: { id: string; name: string; plan: string };
  role: Role;
  csrf_token: string;
}
export interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  status: 'active' | 'revoked' | 'expired';
  expires_at: string | null;
  created_at: string;
  revoked_at: string | null;
}
export interface KeyCreated {
  status: 'created' | 'already_created';
  api_key: ApiKey;
  secret?: string;
}
export interface AuditEntry {
  id: string;
  type: string;
  actor_member_id: string | null;
  data: Record<string, unknown>;
  occurred_at: string;
}

export type Outcome<T> = { ok: true; status: number; data: T } | { ok: false; problem: Problem };

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

/** The shared client's request by a path it does not check (the calls that predate the typed ones). */
const request = api.request as unknown as (
  method: string,
  url: string,
  init: { body?: unknown; headers: Record<string, string> },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Calls the workspace API by a path under /workspace/v1 through the shared client; never throws (no answer is status 0). */
export async function call<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Outcome<T>> {
  const answer = await settle(request(method, `${BASE}${path}`, { body, headers }));
  return answer.ok ? { ok: true, status: answer.status, data: (answer.data ?? null) as T } : answer;
}

/** A fresh Idempotency-Key for one creation attempt. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
