import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, createApiKey } from '../../helpers/tenant.ts';
import {
  advanceClock,
  createTenant,
  portal,
  sentOnboarding,
  uploadFile,
  type Tenant,
} from '../portal-fixtures.ts';

/** GET /api/v1/responses (client-onboarding-api.md) over real HTTP and PostgreSQL. */

let service: TestService;
let tenant: Tenant;
let other: Tenant;
let onboardingId: string;
let token: string;

const list = (query: string, key = tenant.apiKey) => apiRequest(service, key, 'GET', `/responses${query}`);

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service);
  other = await createTenant(service);
  ({ onboardingId, token } = await sentOnboarding(service, tenant));
  const { fields } = tenant.ids;
  // Four answered fields, one second apart: Nickname, Full name, ID document, Notes.
  await portal(service, token, 'PUT', `/answers/${fields.nickname}`, { body: { value: 'Ace' } });
  await advanceClock(service, 1);
  await portal(service, token, 'PUT', `/answers/${fields.fullName}`, { body: { value: 'Ada Lovelace' } });
  await advanceClock(service, 1);
  await uploadFile(service, token, fields.idDocument, { name: 'id.pdf', content: 'x' });
  await advanceClock(service, 1);
  await portal(service, token, 'PUT', `/answers/${fields.notes}`, { body: { value: 'a, 1, true' } });
  // A later save of the first field keeps its place (created_at is the first answer's).
  await portal(service, token, 'PUT', `/answers/${fields.nickname}`, { body: { value: 'Ace 2' } });
  await portal(service, token, 'POST', `/steps/${tenant.ids.steps.about}/submit`);
});

afterAll(async () => {
  await service?.stop();
});

describe('GET /api/v1/responses', () => {
  it('lists the responses oldest first with total, page and limit (defaults 1 and 50)', async () => {
    const answer = await list(`?onboarding_id=${onboardingId}`);
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(4);
    expect(answer.body.page).toBe(1);
    expect(answer.body.limit).toBe(50);
    const { fields } = tenant.ids;
    expect(answer.body.responses.map((response: { field_id: string }) => response.field_id)).toEqual([
      fields.nickname,
      fields.fullName,
      fields.idDocument,
      fields.notes,
    ]);
    const [nickname, fullName, file, notes] = answer.body.responses;
    expect(nickname).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      field_id: fields.nickname,
      value: 'Ace 2',
      status: 'submitted',
      rejection_reason: null,
      created_at: expect.any(String),
    });
    expect(fullName).toMatchObject({ value: 'Ada Lovelace', status: 'submitted' });
    expect(file).toMatchObject({ status: 'draft', value: expect.objectContaining({ file_name: 'id.pdf' }) });
    expect(notes).toMatchObject({ value: 'a, 1, true', status: 'draft' });
    expect(Date.parse(nickname.created_at)).toBeLessThan(Date.parse(notes.created_at));
  });

  it('pages: page and limit', async () => {
    const first = await list(`?onboarding_id=${onboardingId}&limit=3`);
    expect(first.body).toMatchObject({ total: 4, page: 1, limit: 3 });
    expect(first.body.responses).toHaveLength(3);
    const second = await list(`?onboarding_id=${onboardingId}&limit=3&page=2`);
    expect(second.body).toMatchObject({ total: 4, page: 2, limit: 3 });
    expect(second.body.responses.map((response: { field_id: string }) => response.field_id)).toEqual([
      tenant.ids.fields.notes,
    ]);
    const beyond = await list(`?onboarding_id=${onboardingId}&page=9`);
    expect(beyond.body).toMatchObject({ responses: [], total: 4, page: 9 });
  });

  it('400 onboarding_id is required when missing or not a UUID', async () => {
    for (const query of [
      '',
      '?onboarding_id=',
      '?onboarding_id=abc',
      '?limit=500',
      `?onboarding_id=${onboardingId.slice(1)}`,
    ]) {
      const answer = await list(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toEqual({ error: 'onboarding_id is required' });
    }
  });

  it('400 for a limit outside 1 to 100 or a bad page', async () => {
    expect((await list(`?onboarding_id=${onboardingId}&limit=0`)).body).toEqual({
      error: 'limit must be between 1 and 100',
    });
    expect((await list(`?onboarding_id=${onboardingId}&limit=101`)).status).toBe(400);
    expect((await list(`?onboarding_id=${onboardingId}&page=0`)).body).toEqual({
      error: 'page must be a whole number of 1 or more',
    });
  });

  it("404 Onboarding not found: unknown id, another team's onboarding", async () => {
    const unknown = await list(`?onboarding_id=${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Onboarding not found' });
    const foreign = await list(`?onboarding_id=${onboardingId}`, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Onboarding not found' });
  });

  it('needs the responses:read scope', async () => {
    const key = await createApiKey(service, tenant.teamId, ['onboardings:read']);
    const answer = await list(`?onboarding_id=${onboardingId}`, key.apiKey);
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('api_key_scope_denied');
    expect(
      (await apiRequest(service, undefined, 'GET', `/responses?onboarding_id=${onboardingId}`)).status,
    ).toBe(401);
  });

  it('lists an archived onboarding too; an empty list for an onboarding without answers', async () => {
    const fresh = await sentOnboarding(service, tenant);
    expect((await adminRequest(service, 'POST', `/onboardings/${fresh.onboardingId}/archive`)).status).toBe(
      200,
    );
    const answer = await list(`?onboarding_id=${fresh.onboardingId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ responses: [], total: 0, page: 1, limit: 50 });
  });

  it("404 once the onboarding's client was erased", async () => {
    const erased = await sentOnboarding(service, tenant);
    await portal(service, erased.token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
      body: { value: 'x' },
    });
    const erase = await adminRequest(
      service,
      'POST',
      `/teams/${tenant.teamId}/clients/${erased.client.id}/erase`,
    );
    expect(erase.status).toBe(202);
    expect((await list(`?onboarding_id=${erased.onboardingId}`)).body).toEqual({
      error: 'Onboarding not found',
    });
  });
});
