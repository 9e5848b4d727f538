/**
 * client-onboarding-api.md, Errors and Limits: the error bodies of the cross-cutting
 * rules (400 for `limit`, 413, 500, 404) over real HTTP. Authentication codes and 429
 * have their own files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../services/app/http-app.ts';
import { addPublicTestRoutes } from '../../helpers/public-test-routes.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  adminHeaders,
  apiRequest,
  createTeamWithKey,
  request,
  type HttpAnswer,
} from '../../helpers/tenant.ts';

let service: TestService;
let apiKey: string;
let teamId: string;
beforeAll(async () => {
  addPublicTestRoutes();
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ apiKey, teamId } = await createTeamWithKey(service));
});
afterAll(async () => {
  await service?.stop();
});

function expectFullError(answer: HttpAnswer, status: number, code: string, retryable = false) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({
    error: expect.any(String),
    code,
    message: expect.any(String),
    retryable,
    request_id: expect.any(String),
    // A failed validation names where it failed, beside the spec's unchanged text.
    ...(code === 'invalid_body'
      ? {
          details: {
            issues: expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]),
          },
        }
      : {}),
  });
  expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
}

describe('query limit (1 to 100)', () => {
  it.each(['0', '101', '-1', '1.5', 'abc', '', '1e3'])(
    'answers limit=%j on a non-onboarding list with 400 and the text only',
    async (limit) => {
      const answer = await apiRequest(service, apiKey, 'GET', `/__test/test-clients?limit=${limit}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toStrictEqual({ error: 'limit must be between 1 and 100' });
    },
  );

  it('accepts 1 and 100, and defaults to 50 (offset to 0)', async () => {
    for (const limit of [1, 100]) {
      const answer = await apiRequest(service, apiKey, 'GET', `/__test/test-clients?limit=${limit}&offset=3`);
      expect(answer.body).toEqual({ team_id: teamId, limit, offset: 3 });
    }
    expect((await apiRequest(service, apiKey, 'GET', '/__test/test-clients')).body).toEqual({
      team_id: teamId,
      limit: 50,
      offset: 0,
    });
  });

  it('answers an out-of-range offset with its own text', async () => {
    const answer = await apiRequest(service, apiKey, 'GET', '/__test/test-clients?offset=-1');
    expect(answer.status).toBe(400);
    expect(answer.body).toStrictEqual({ error: 'offset must be a whole number of 0 or more' });
  });

  it.each(['0', '101'])('answers limit=%s on an onboarding endpoint with 400 invalid_body', async (limit) => {
    const answer = await apiRequest(service, apiKey, 'POST', `/__test/test-onboardings?limit=${limit}`, {
      body: { client_id: '5b3b1d8e-4a7c-4f0e-9a55-3c1c1a2b3c4d' },
    });
    expectFullError(answer, 400, 'invalid_body');
  });
});

describe('400 bodies', () => {
  it('gives the text of the failed rule on non-onboarding endpoints', async () => {
    const answer = await apiRequest(service, apiKey, 'POST', '/__test/test-clients', { body: {} });
    expect(answer.status).toBe(400);
    expect(answer.body).toStrictEqual({ error: 'name and email are required' });
  });

  it('gives the full invalid_body error on onboarding endpoints', async () => {
    const answer = await apiRequest(service, apiKey, 'POST', '/__test/test-onboardings', { body: {} });
    expectFullError(answer, 400, 'invalid_body');
  });

  it('answers malformed JSON with 400 invalid_body', async () => {
    const answer = await apiRequest(service, apiKey, 'POST', '/__test/test-onboardings', {
      body: '{"client_id":',
    });
    expectFullError(answer, 400, 'invalid_body');
  });
});

describe('413 request body too large (maximum 1 MiB)', () => {
  const bodyOf = (bytes: number) => {
    const envelope = '{"name":""}';
    return `{"name":"${'x'.repeat(bytes - envelope.length)}"}`;
  };

  it('accepts a body of exactly 1 MiB', async () => {
    const body = bodyOf(MAX_BODY_BYTES);
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    const answer = await apiRequest(service, apiKey, 'POST', '/__test/test-clients', { body });
    expect(answer.status).toBe(201);
  });

  it('answers one byte more with 413 and the full error body', async () => {
    const answer = await apiRequest(service, apiKey, 'POST', '/__test/test-clients', {
      body: bodyOf(MAX_BODY_BYTES + 1),
    });
    expectFullError(answer, 413, 'payload_too_large');
  });

  it('answers an oversized body on an onboarding endpoint and on the operator API with 413', async () => {
    const big = JSON.stringify({ client_id: 'x'.repeat(MAX_BODY_BYTES) });
    expectFullError(
      await apiRequest(service, apiKey, 'POST', '/__test/test-onboardings', { body: big }),
      413,
      'payload_too_large',
    );
    const admin = await request(service, 'POST', '/admin/v1/teams', {
      headers: adminHeaders,
      body: JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES), plan: 'pro' }),
    });
    expectFullError(admin, 413, 'payload_too_large');
  });

  it('checks the key before reading the body', async () => {
    const answer = await apiRequest(service, undefined, 'POST', '/__test/test-clients', {
      body: bodyOf(MAX_BODY_BYTES + 1),
    });
    expectFullError(answer, 401, 'api_key_required');
  });
});

describe('500', () => {
  it('answers an unexpected failure with a retryable full error body', async () => {
    const answer = await apiRequest(service, apiKey, 'GET', '/__test/test-failure');
    expectFullError(answer, 500, 'internal_error', true);
    expect(JSON.stringify(answer.body)).not.toContain('database went away');
  });
});

describe('404', () => {
  it('answers an unknown path', async () => {
    const answer = await apiRequest(service, apiKey, 'GET', '/no-such-endpoint');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'Not found' });
  });
});
