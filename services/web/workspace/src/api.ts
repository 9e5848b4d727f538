import type { Problem } from './problems.ts';

/** The workspace API's answers the pages use. */
export interface Member {
  id: string;
  name: string;
  email: string;
  role: Role;
}
export type Role = 'owner' | 'admin' | 'member';
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

/** Calls the workspace API; never throws (no answer is status 0). */
export async function call<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Outcome<T>> {
  const sent: Record<string, string> = { accept: 'application/json', ...headers };
  if (body !== undefined) sent['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) sent['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, problem: { status: 0, code: 'network', message: '', retryAfterSeconds: null } };
  }
  const data: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: data as T };
  const error = (data ?? {}) as { code?: string; message?: string; error?: string };
  if (error.code === 'session_required' && path !== '/me') sessionEnded?.();
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    ok: false,
    problem: {
      status: response.status,
      code: error.code ?? `http_${response.status}`,
      message: error.message ?? error.error ?? '',
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    },
  };
}

/** A fresh Idempotency-Key for one creation attempt. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
