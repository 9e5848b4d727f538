import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_EVENT_TYPES } from '../../../services/events/contract/public-event-types.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createApiKey, createTeamWithKey, type TeamWithKey } from '../../helpers/tenant.ts';

/** POST and DELETE /api/v1/automation/subscribe over real HTTP and PostgreSQL. */

let service: TestService;
let team: TeamWithKey;
let other: TeamWithKey;

const REQUIRED = 'event and target_url are required';
const INVALID_EVENT =
  'Invalid event. Allowed values: onboarding.completed, onboarding.sent, onboarding.started, onboarding.overdue, response.submitted, signature.signed, payment.succeeded, file.uploaded';
const NOT_PUBLIC = 'target_url must be a public HTTPS URL';

const subscribe = (body: unknown, key = team.apiKey) =>
  apiRequest(service, key, 'POST', '/automation/subscribe', { body });
const unsubscribe = (body: unknown, key = team.apiKey) =>
  apiRequest(service, key, 'DELETE', '/automation/subscribe', { body });

async function subscriptionRow(id: string) {
  const result = await service.database.pool.query('select * from hook_subscriptions where id = $1', [id]);
  return result.rows[0];
}

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off', HOOK_TARGET_ALLOWLIST: 'localhost' });
  team = await createTeamWithKey(service, { scopes: ['webhooks:write'] });
  other = await createTeamWithKey(service, { scopes: ['webhooks:write'] });
});

afterAll(async () => {
  await service?.stop();
});

describe('POST /api/v1/automation/subscribe', () => {
  it.each(PUBLIC_EVENT_TYPES)('201 with the id of a new active subscription to %s', async (event) => {
    const answer = await subscribe({ event, target_url: 'https://93.184.216.34/hooks/a?token=x' });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await subscriptionRow(answer.body.id)).toMatchObject({
      team_id: team.teamId,
      event,
      target_url: 'https://93.184.216.34/hooks/a?token=x',
      active: true,
      api_key_id: team.apiKeyId,
    });
  });

  it('every request creates a new subscription, even for the same event and URL', async () => {
    const body = { event: 'onboarding.completed', target_url: 'https://localhost:9443/hook' };
    const first = await subscribe(body);
    const second = await subscribe(body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect((await subscriptionRow(first.body.id)).active).toBe(true);
    expect((await subscriptionRow(second.body.id)).active).toBe(true);
  });

  it('ignores unknown keys', async () => {
    const answer = await subscribe({
      event: 'onboarding.sent',
      target_url: 'https://LOCALHOST:9443/hook',
      id: 'mine',
      active: false,
    });
    expect(answer.status).toBe(201);
    expect((await subscriptionRow(answer.body.id)).active).toBe(true);
  });

  it.each([
    ['no event', { target_url: 'https://localhost/x' }],
    ['no target_url', { event: 'onboarding.sent' }],
    ['neither', {}],
    ['null event', { event: null, target_url: 'https://localhost/x' }],
    ['empty event', { event: '', target_url: 'https://localhost/x' }],
    ['empty target_url', { event: 'onboarding.sent', target_url: '' }],
    ['null target_url and an invalid event', { event: 'nope', target_url: null }],
    ['JSON null', null],
    ['a JSON array', []],
  ])(`400 ${REQUIRED}: %s`, async (_label, body) => {
    const answer = await subscribe(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: REQUIRED });
  });

  it('400 for no body at all', async () => {
    const answer = await apiRequest(service, team.apiKey, 'POST', '/automation/subscribe');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: REQUIRED });
  });

  it.each([
    'onboarding_created',
    'client_created',
    'ONBOARDING.SENT',
    'onboarding.*',
    'payment.failed',
    5,
    ['onboarding.sent'],
  ])('400 Invalid event with the allowed list: %j', async (event) => {
    const answer = await subscribe({ event, target_url: 'https://localhost/x' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: INVALID_EVENT });
    expect(answer.body.error.startsWith('Invalid event')).toBe(true);
  });

  it.each([
    'http://93.184.216.34/hook',
    'ftp://93.184.216.34/hook',
    'https://user:pass@93.184.216.34/hook',
    'https://localhost.localdomain/hook',
    'https://api.localhost/hook',
    'https://10.0.0.8/hook',
    'https://192.168.0.10/hook',
    'https://172.20.1.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.1.1/hook',
    'https://0.0.0.0/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://0177.0.0.1/hook',
    'https://127.1/hook',
    'https://127.0.0.2/hook',
    'https://[::1]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a9fe:a9fe]/hook',
    'https://printer.local/hook',
    'https://metadata.google.internal/hook',
    'https://router.lan/hook',
    'https://nas.home.arpa/hook',
    'https://intranet/hook',
    `https://93.184.216.34/${'a'.repeat(480)}`,
    'not a url',
  ])(`400 ${NOT_PUBLIC}: %s`, async (target_url) => {
    const answer = await subscribe({ event: 'onboarding.completed', target_url });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: NOT_PUBLIC });
  });

  it('a non-string target_url is not a public HTTPS URL', async () => {
    const answer = await subscribe({ event: 'onboarding.completed', target_url: 443 });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: NOT_PUBLIC });
  });

  it('the allowlist lets loopback through but still requires HTTPS and no credentials', async () => {
    expect(
      (await subscribe({ event: 'file.uploaded', target_url: 'https://localhost:8443/in' })).status,
    ).toBe(201);
    for (const target_url of ['http://localhost:8443/in', 'https://u:p@localhost:8443/in']) {
      const answer = await subscribe({ event: 'file.uploaded', target_url });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: NOT_PUBLIC });
    }
  });

  it('500 characters is the limit of target_url', async () => {
    const base = 'https://93.184.216.34/';
    const ok = await subscribe({
      event: 'onboarding.sent',
      target_url: base + 'a'.repeat(500 - base.length),
    });
    expect(ok.status).toBe(201);
    const long = await subscribe({
      event: 'onboarding.sent',
      target_url: base + 'a'.repeat(501 - base.length),
    });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ error: NOT_PUBLIC });
  });

  it('403 api_key_scope_denied without webhooks:write', async () => {
    const key = await createApiKey(service, team.teamId, ['events:read']);
    const answer = await subscribe(
      { event: 'onboarding.sent', target_url: 'https://localhost/x' },
      key.apiKey,
    );
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('api_key_scope_denied');
  });
});

describe('DELETE /api/v1/automation/subscribe', () => {
  const create = async (key = team.apiKey) => {
    const answer = await subscribe({ event: 'onboarding.completed', target_url: 'https://localhost/x' }, key);
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  };

  it('200 success; the subscription is no longer active; deleting it again is 404', async () => {
    const id = await create();
    const answer = await unsubscribe({ id });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect(await subscriptionRow(id)).toMatchObject({ active: false, deleted_at: expect.any(Date) });
    const again = await unsubscribe({ id });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Subscription not found' });
  });

  it("404 Subscription not found for an unknown id and for another team's subscription, alike", async () => {
    const theirs = await create(other.apiKey);
    const unknown = await unsubscribe({ id: '00000000-0000-4000-8000-000000000000' });
    const foreign = await unsubscribe({ id: theirs });
    for (const answer of [unknown, foreign]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'Subscription not found' });
    }
    expect((await subscriptionRow(theirs)).active).toBe(true);
  });

  it.each([
    ['no id', {}],
    ['null id', { id: null }],
    ['empty id', { id: '' }],
    ['a number', { id: 5 }],
    ['not a UUID', { id: 'abc' }],
    ['JSON null', null],
  ])('400 id is required: %s', async (_label, body) => {
    const answer = await unsubscribe(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'id is required' });
  });

  it('400 id is required without a body', async () => {
    const answer = await apiRequest(service, team.apiKey, 'DELETE', '/automation/subscribe');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'id is required' });
  });

  it('400 id is required with an empty JSON body', async () => {
    const answer = await apiRequest(service, team.apiKey, 'DELETE', '/automation/subscribe', {
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'id is required' });
  });
});
