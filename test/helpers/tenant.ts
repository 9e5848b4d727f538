/**
 * Tenants for tests, made through the operator API over real HTTP (as an operator would):
 * teams, members, API keys, templates and gallery templates.
 *
 *   const service = await startTestService();
 *   const { teamId, apiKey, headers } = await createTeamWithKey(service, { plan: 'pro', scopes: ['clients:read'] });
 *   const response = await fetch(`${service.url}/api/v1/clients`, { headers });
 *
 * Every helper throws (with the answer's status and body) when the operator API refuses.
 *
 * Rate limits: the test clock stands still, so every request of a test file falls in one
 * 60-second window and the 101st request from 127.0.0.1 to /api/v1 answers 429. Start the
 * service with `startTestService({ RATE_LIMITS: 'off' })`, or move `service.clock` by 60
 * seconds between tests, unless the test is about rate limits.
 */
import type { Scope } from '../../services/access/contract/scopes.ts';
import { SCOPES } from '../../services/access/contract/scopes.ts';
import type { Plan } from '../../services/access/contract/plans.ts';
import { registerSecrets } from './run-log.ts';
import { ADMIN_TOKEN, type TestService } from './service.ts';

type Service = Pick<TestService, 'url'>;

export const adminHeaders = {
  authorization: `Bearer ${ADMIN_TOKEN}`,
  'content-type': 'application/json',
};

export interface HttpAnswer<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
}

/** One request to the service; the body is parsed as JSON when there is one. */
export async function request<Body = any>(
  service: Service,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer<Body>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${service.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as Body };
}

/** A request to the operator API (`/admin/v1` + path) with the test ADMIN_TOKEN. */
export function adminRequest<Body = any>(service: Service, method: string, path: string, body?: unknown) {
  return request<Body>(service, method, `/admin/v1${path}`, {
    headers: { authorization: adminHeaders.authorization },
    body,
  });
}

/** A request to the public API (`/api/v1` + path) with an API key. */
export function apiRequest<Body = any>(
  service: Service,
  apiKey: string | undefined,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  return request<Body>(service, method, `/api/v1${path}`, {
    headers: { ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }), ...options.headers },
    body: options.body,
  });
}

async function expectStatus<Body>(answer: Promise<HttpAnswer<Body>>, status: number, what: string) {
  const result = await answer;
  if (result.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${result.status} ${JSON.stringify(result.body)}`);
  }
  return result.body;
}

export interface Team {
  id: string;
  name: string;
  plan: Plan;
  timezone: string;
  locale: string;
  date_format: string;
  email_sender_name: string | null;
  sending_paused: boolean;
  payments_connected: boolean;
  monthly_onboarding_limit: number | 'unlimited' | null;
  unpaid: boolean;
  new_recipient_cap: number | null;
  accent_color: string | null;
  has_logo: boolean;
  created_at: string;
  updated_at: string;
}

export type TeamInput = Partial<Omit<Team, 'id' | 'has_logo' | 'created_at' | 'updated_at'>>;

let teamCounter = 0;

/** POST /admin/v1/teams. Defaults: plan pro, a unique name; any other setting may be given. */
export async function createTeam(service: Service, input: TeamInput = {}): Promise<Team> {
  const body = { name: `Team ${++teamCounter}`, plan: 'pro', ...input };
  const answer = await expectStatus(adminRequest(service, 'POST', '/teams', body), 201, 'create team');
  return answer.team as Team;
}

/** PATCH /admin/v1/teams/:id with any setting (plan, sending_paused, monthly_onboarding_limit, ...). */
export async function updateTeam(service: Service, teamId: string, changes: TeamInput): Promise<Team> {
  const answer = await expectStatus(
    adminRequest(service, 'PATCH', `/teams/${teamId}`, changes),
    200,
    'update team',
  );
  return answer.team as Team;
}

export interface Member {
  id: string;
  team_id: string;
  name: string;
  email: string;
  role: 'owner' | 'admin' | 'member';
  created_at: string;
}

let memberCounter = 0;

/** POST /admin/v1/teams/:id/members. Defaults: a unique name and email, role member. */
export async function addMember(
  service: Service,
  teamId: string,
  input: Partial<Pick<Member, 'name' | 'email' | 'role'>> = {},
): Promise<Member> {
  const n = ++memberCounter;
  const body = { name: `Member ${n}`, email: `member${n}@example.com`, role: 'member', ...input };
  const answer = await expectStatus(
    adminRequest(service, 'POST', `/teams/${teamId}/members`, body),
    201,
    'add member',
  );
  return answer.member as Member;
}

/** DELETE /admin/v1/teams/:id/members/:member_id. */
export async function removeMember(service: Service, teamId: string, memberId: string): Promise<void> {
  await expectStatus(
    adminRequest(service, 'DELETE', `/teams/${teamId}/members/${memberId}`),
    200,
    'remove member',
  );
}

export interface CreatedApiKey {
  apiKey: string;
  apiKeyId: string;
  /** Authorization (and JSON content type) headers for fetch. */
  headers: Record<string, string>;
  api_key: { id: string; name: string; scopes: Scope[]; expires_at: string | null; created_at: string };
}

export const ALL_SCOPES: Scope[] = [...SCOPES];

export const keyHeaders = (apiKey: string) => ({
  authorization: `Bearer ${apiKey}`,
  'content-type': 'application/json',
});

/** POST /admin/v1/teams/:id/api-keys. `expires_on`: YYYY-MM-DD (the key ends at the end of that UTC date). */
export async function createApiKey(
  service: Service,
  teamId: string,
  scopes: Scope[] = ALL_SCOPES,
  options: { name?: string; expires_on?: string } = {},
): Promise<CreatedApiKey> {
  const answer = await expectStatus(
    adminRequest(service, 'POST', `/teams/${teamId}/api-keys`, { scopes, ...options }),
    201,
    'create API key',
  );
  registerSecrets(answer.secret);
  return {
    apiKey: answer.secret,
    apiKeyId: answer.api_key.id,
    headers: keyHeaders(answer.secret),
    api_key: answer.api_key,
  };
}

/** DELETE /admin/v1/teams/:id/api-keys/:key_id: the key fails from its next request. */
export async function revokeApiKey(service: Service, teamId: string, apiKeyId: string): Promise<void> {
  await expectStatus(
    adminRequest(service, 'DELETE', `/teams/${teamId}/api-keys/${apiKeyId}`),
    200,
    'revoke API key',
  );
}

export interface TeamWithKey extends CreatedApiKey {
  teamId: string;
  team: Team;
}

/** A team (default plan pro) with one API key (default: every scope). */
export async function createTeamWithKey(
  service: Service,
  options: TeamInput & { scopes?: Scope[] } = {},
): Promise<TeamWithKey> {
  const { scopes = ALL_SCOPES, ...teamInput } = options;
  const team = await createTeam(service, teamInput);
  const key = await createApiKey(service, team.id, scopes);
  return { teamId: team.id, team, ...key };
}

export interface TemplateFieldInput {
  type: string;
  label: string;
  sort_order: number;
  is_required?: boolean;
  config?: Record<string, unknown>;
  conditional_rules?: unknown;
  translations?: unknown;
}

export interface TemplateStepInput {
  title: string;
  sort_order: number;
  is_optional?: boolean;
  conditional_rules?: unknown;
  translations?: unknown;
  fields?: TemplateFieldInput[];
}

export interface TemplateInput {
  name?: string;
  description?: string | null;
  vertical?: string | null;
  settings?: Record<string, unknown>;
  translations?: unknown;
  steps?: TemplateStepInput[];
}

/** A template as GET /api/v1/templates/:id answers it (with the generated ids). */
export interface Template {
  id: string;
  name: string;
  description: string | null;
  vertical: string | null;
  created_at: string;
  template_steps: {
    id: string;
    title: string;
    sort_order: number;
    is_optional: boolean;
    conditional_rules: unknown;
    template_fields: {
      id: string;
      type: string;
      label: string;
      is_required: boolean;
      sort_order: number;
      config: Record<string, unknown>;
      conditional_rules: unknown;
    }[];
  }[];
}

let templateCounter = 0;

/** Default: one step with one required short_text field. */
export const defaultTemplateBody = (): Required<Pick<TemplateInput, 'name' | 'vertical' | 'steps'>> => ({
  name: `Template ${++templateCounter}`,
  vertical: 'accounting',
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      fields: [{ type: 'short_text', label: 'Full name', sort_order: 1, is_required: true }],
    },
  ],
});

/** POST /admin/v1/teams/:id/templates. */
export async function createTemplate(
  service: Service,
  teamId: string,
  body: TemplateInput = {},
): Promise<Template> {
  const answer = await expectStatus(
    adminRequest(service, 'POST', `/teams/${teamId}/templates`, { ...defaultTemplateBody(), ...body }),
    201,
    'create template',
  );
  return answer.template as Template;
}

/** DELETE /admin/v1/teams/:id/templates/:template_id. */
export async function deleteTemplate(service: Service, teamId: string, templateId: string): Promise<void> {
  await expectStatus(
    adminRequest(service, 'DELETE', `/teams/${teamId}/templates/${templateId}`),
    200,
    'delete template',
  );
}

/** POST /admin/v1/gallery-templates. */
export async function createGalleryTemplate(service: Service, body: TemplateInput = {}): Promise<Template> {
  const answer = await expectStatus(
    adminRequest(service, 'POST', '/gallery-templates', { ...defaultTemplateBody(), ...body }),
    201,
    'create gallery template',
  );
  return answer.template as Template;
}
