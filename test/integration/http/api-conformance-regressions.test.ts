/**
 * Answers that Schemathesis once found to differ from /openapi.json (or to be a server
 * error), kept here as plain examples so they fail fast and readably.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createTeamWithKey,
  request,
  type TeamWithKey,
} from '../../helpers/tenant.ts';

let service: TestService;
let tenant: TeamWithKey;
let document: any;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTeamWithKey(service);
  // Dereferenced: the document names its schemas (components/schemas) and refers to them.
  document = await SwaggerParser.dereference((await request(service, 'GET', '/openapi.json')).body);
});

afterAll(async () => {
  await service?.stop();
});

describe('a method fastify refuses by itself', () => {
  it('answers 400 invalid_body, not 500, for QUERY without a Content-Type', async () => {
    const answer = await request(service, 'QUERY', '/api/v1/me', {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_body', retryable: false });
  });
});

describe('offsets and pages beyond what a number holds exactly', () => {
  it.each([
    ['/clients?offset=100000000000000000000', 'offset must be a whole number of 0 or more'],
    ['/templates?page=100000000000000000000', 'page must be a whole number of 1 or more'],
  ])('GET %s answers 400', async (path, error) => {
    const answer = await apiRequest(service, tenant.apiKey, 'GET', path);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error });
  });

  it('GET /onboardings with such an offset answers 400 invalid_body', async () => {
    const answer = await apiRequest(service, tenant.apiKey, 'GET', '/onboardings?offset=1e20');
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_body');
  });

  it('still lists from the largest exact offset (an empty page)', async () => {
    const answer = await apiRequest(
      service,
      tenant.apiKey,
      'GET',
      `/clients?offset=${Number.MAX_SAFE_INTEGER}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.clients).toEqual([]);
  });
});

describe('operator routes', () => {
  it('document the 400 a malformed path parameter answers', async () => {
    const answer = await adminRequest(service, 'GET', '/onboardings/not-a-uuid/link');
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_body');
    const responses = document.paths['/admin/v1/onboardings/{onboarding_id}/link'].get.responses;
    expect(Object.keys(responses)).toContain('400');
  });

  it('document a team whose monthly onboarding limit is null (the plan default)', async () => {
    const created = await adminRequest(service, 'POST', '/teams', { name: 'Null limit', plan: 'pro' });
    expect(created.status).toBe(201);
    expect(created.body.team.monthly_onboarding_limit).toBeNull();
    const limit =
      document.paths['/admin/v1/teams'].post.responses['201'].content['application/json'].schema.properties
        .team.properties.monthly_onboarding_limit;
    expect(limit.anyOf).toContainEqual({ type: 'null' });
  });
});
