import { describe, expect, it } from 'vitest';
import { call, createApiClient, retryAfterSeconds } from './client.ts';

function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const seen: Request[] = [];
  const fetch = async (request: Request) => {
    seen.push(request);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  };
  return { seen, fetch };
}

describe('the shared API client', () => {
  it('answers the data of a success with its status', async () => {
    const { fetch } = answering(200, { link: { state: 'open' }, team: null, client: null });
    const api = createApiClient({ baseUrl: 'http://service', fetch });
    const answer = await call(
      api.GET('/portal/v1/onboardings/{token}/face', { params: { path: { token: 'abc' } } }),
    );
    expect(answer).toEqual({
      ok: true,
      status: 200,
      data: { link: { state: 'open' }, team: null, client: null },
    });
  });

  it('never throws: no answer is status 0, code network', async () => {
    const api = createApiClient({
      baseUrl: 'http://service',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const answer = await call(api.GET('/workspace/v1/me'));
    expect(answer).toEqual({
      ok: false,
      problem: { status: 0, code: 'network', message: '', details: null, retryAfterSeconds: null },
    });
  });

  it('turns a refusal into its code, message, details and Retry-After', async () => {
    const { fetch } = answering(
      429,
      { error: 'Too many', code: 'rate_limited', details: { field_id: 'f' } },
      { 'retry-after': '7' },
    );
    const api = createApiClient({ baseUrl: 'http://service', fetch });
    const answer = await call(api.GET('/workspace/v1/me'));
    expect(answer).toEqual({
      ok: false,
      problem: {
        status: 429,
        code: 'rate_limited',
        message: 'Too many',
        details: { field_id: 'f' },
        retryAfterSeconds: 7,
      },
    });
  });

  it('sends the CSRF token with a request that is not a GET, and accepts JSON', async () => {
    const { seen, fetch } = answering(200, { success: true });
    const api = createApiClient({ baseUrl: 'http://service', fetch, csrfToken: () => 'token-1' });
    await call(api.GET('/workspace/v1/me'));
    await call(api.DELETE('/workspace/v1/members/{member_id}', { params: { path: { member_id: 'm1' } } }));
    expect(seen[0]!.headers.get('x-csrf-token')).toBeNull();
    expect(seen[1]!.headers.get('x-csrf-token')).toBe('token-1');
    expect(seen[1]!.headers.get('accept')).toBe('application/json');
    expect(seen[1]!.url).toBe('http://service/workspace/v1/members/m1');
  });

  it('tells onSessionEnded of a session_required answer, with the operation path', async () => {
    const ended: string[] = [];
    const { fetch } = answering(401, { error: 'No session', code: 'session_required' });
    const api = createApiClient({
      baseUrl: 'http://service',
      fetch,
      onSessionEnded: (path) => ended.push(path),
    });
    const answer = await call(api.GET('/workspace/v1/members'));
    expect(answer.ok).toBe(false);
    expect(ended).toEqual(['/workspace/v1/members']);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds('30')).toBe(30);
    expect(retryAfterSeconds('0')).toBeNull();
    expect(retryAfterSeconds('soon')).toBeNull();
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(retryAfterSeconds(inAMinute)).toBeGreaterThan(55);
  });
});
