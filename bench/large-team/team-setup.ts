import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { SCOPES } from '../../services/access/contract/scopes.ts';
import type { TemplateSnapshot } from '../../services/onboardings/onboarding-events.ts';
import { startService, type RunningService } from '../../services/app/runtime.ts';
import { loadSettings } from '../../shared/config/settings.ts';
import { createLogger } from '../../shared/logging/logger.ts';
import { BENCH_PERSONAL_DATA_KEK } from '../lib/bench-kek.ts';
import { WORK_DIR } from '../lib/server.ts';

/**
 * The service on a database of its own (as bench/lib/bench-service.ts starts it, rate limits
 * off and silent), started twice on the same database: before and after the history is written.
 */
export async function startOn(url: string, adminToken: string): Promise<RunningService> {
  const settings = loadSettings({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    PERSONAL_DATA_KEK: BENCH_PERSONAL_DATA_KEK,
    ADMIN_TOKEN: adminToken,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(WORK_DIR, 'large-team-data'),
  });
  return startService(settings, createLogger('silent'));
}

export interface TeamSetup {
  teamId: string;
  memberId: string;
  email: string;
  password: string;
  templateId: string;
  /** The snapshot the service made for a real onboarding of the template. */
  snapshot: TemplateSnapshot;
  timezone: string;
}

/**
 * A team as a new user makes it, through the service: sign-up (the owner), a template of one
 * step and three fields (operator API), one client and one onboarding (public API), whose
 * template snapshot the generated history then carries.
 */
export async function setUpTeam(
  service: RunningService,
  adminToken: string,
  name: string,
): Promise<TeamSetup> {
  const { url } = service;
  const email = `owner-${randomBytes(4).toString('hex')}@bench.example`;
  const password = `bench ${randomBytes(12).toString('hex')} passphrase`;
  await send(url, 'POST', '/workspace/v1/sign-up', {
    body: { team_name: name, name: 'Olive Owner', email, password },
  });
  const session = await signIn(url, email, password);
  const key = await send(url, 'POST', `/admin/v1/teams/${session.teamId}/api-keys`, {
    token: adminToken,
    body: { name: 'large team bench', scopes: [...SCOPES] },
  });
  const template = await send(url, 'POST', `/admin/v1/teams/${session.teamId}/templates`, {
    token: adminToken,
    body: {
      name: 'Client intake',
      steps: [
        {
          title: 'About you',
          sort_order: 1,
          fields: ['Legal name', 'Tax number', 'Preferred contact time'].map((label, index) => ({
            type: 'short_text',
            label,
            sort_order: index + 1,
            is_required: index < 2,
          })),
        },
      ],
    },
  });
  const client = await send(url, 'POST', '/api/v1/clients', {
    token: key.secret,
    body: { name: 'First Client', email: `first-${randomBytes(4).toString('hex')}@bench.example` },
  });
  const onboarding = await send(url, 'POST', '/api/v1/onboardings', {
    token: key.secret,
    body: { template_id: template.template.id, client_id: client.client.id },
  });
  const { rows } = await service.context.pool.query<{ snapshot: TemplateSnapshot; timezone: string }>(
    `select o.template_snapshot as snapshot, t.timezone from onboardings o join teams t on t.id = o.team_id
     where o.id = $1`,
    [onboarding.onboarding.id],
  );
  return {
    teamId: session.teamId,
    memberId: session.memberId,
    email,
    password,
    templateId: template.template.id,
    snapshot: rows[0]!.snapshot,
    timezone: rows[0]!.timezone,
  };
}

export async function signIn(
  url: string,
  email: string,
  password: string,
): Promise<{ cookie: string; teamId: string; memberId: string }> {
  const response = await fetch(`${url}/workspace/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const body = (await response.json()) as { team: { id: string }; member: { id: string } };
  return { cookie, teamId: body.team.id, memberId: body.member.id };
}

async function send(
  url: string,
  method: string,
  route: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<any> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
