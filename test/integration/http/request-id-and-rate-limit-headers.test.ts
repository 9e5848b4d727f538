/**
 * Request ids and rate-limit headers over real HTTP: a caller's well-formed X-Request-Id
 * is kept (header, error body, log line), a malformed one is replaced; every public API
 * answer names its rate-limit policies (IETF httpapi RateLimit draft) and counts down,
 * while the 429 keeps the spec's body and Retry-After.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../shared/logging/logger.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createTeamWithKey, request } from '../../helpers/tenant.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let service: TestService;
const lines: string[] = [];

beforeAll(async () => {
  const buffer = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  service = await startTestService({ RATE_LIMITS: 'on' }, { logger: createLogger('info', buffer) });
});

afterAll(async () => {
  await service?.stop();
});

/** Puts the clock `seconds` into the next minute (a fresh window for every counter). */
function startNextWindow(seconds: number): void {
  const now = service.clock.now().getTime();
  service.clock.set(new Date(Math.floor(now / 60_000) * 60_000 + 60_000 + seconds * 1000));
}

describe('X-Request-Id', () => {
  it('keeps a well-formed id of the caller in the header, the error body and the log', async () => {
    lines.length = 0;
    const answer = await request(service, 'GET', '/api/v1/me', { headers: { 'x-request-id': 'abc-123' } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('x-request-id')).toBe('abc-123');
    expect(answer.body).toMatchObject({ code: 'api_key_required', request_id: 'abc-123' });
    expect(lines.some((line) => JSON.parse(line).reqId === 'abc-123')).toBe(true);
  });

  it('keeps 128 visible characters', async () => {
    const id = `${'!~'.repeat(63)}ab`;
    const answer = await request(service, 'GET', '/healthz', { headers: { 'x-request-id': id } });
    expect(answer.headers.get('x-request-id')).toBe(id);
  });

  it.each([
    ['300 characters', 'a'.repeat(300)],
    ['129 characters', 'a'.repeat(129)],
    ['a space', 'abc 123'],
    ['an empty value', ''],
  ])('replaces an id with %s by a new UUID', async (_name, id) => {
    const answer = await request(service, 'GET', '/nowhere', { headers: { 'x-request-id': id } });
    expect(answer.status).toBe(404);
    const given = answer.headers.get('x-request-id');
    expect(given).toMatch(UUID);
    expect(answer.body.request_id).toBe(given);
  });

  it('makes a new UUID when none is given', async () => {
    const answer = await request(service, 'GET', '/healthz');
    expect(answer.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('RateLimit and RateLimit-Policy', () => {
  it('name the per-IP, per-key and per-key-and-IP policies and count down within a window', async () => {
    const { apiKey } = await createTeamWithKey(service, { plan: 'pro' });
    startNextWindow(10);
    const first = await apiRequest(service, apiKey, 'GET', '/me');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe(
      '"per-ip";q=100;w=60, "per-key";q=200;w=60, "per-key-and-ip";q=100;w=60',
    );
    expect(first.headers.get('ratelimit')).toBe(
      '"per-ip";r=99;t=50, "per-key";r=199;t=50, "per-key-and-ip";r=99;t=50',
    );

    service.clock.advance(20);
    const second = await apiRequest(service, apiKey, 'GET', '/clients');
    expect(second.headers.get('ratelimit')).toBe(
      '"per-ip";r=98;t=30, "per-key";r=198;t=30, "per-key-and-ip";r=98;t=30',
    );

    service.clock.advance(30); // a new window: every quota is full again
    const third = await apiRequest(service, apiKey, 'GET', '/me');
    expect(third.headers.get('ratelimit')).toBe(
      '"per-ip";r=99;t=60, "per-key";r=199;t=60, "per-key-and-ip";r=99;t=60',
    );
  });

  it('name only the per-IP policy when no key is given', async () => {
    startNextWindow(0);
    const answer = await request(service, 'GET', '/api/v1/me');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('ratelimit-policy')).toBe('"per-ip";q=100;w=60');
    expect(answer.headers.get('ratelimit')).toBe('"per-ip";r=99;t=60');
  });

  it('show nothing left on a 429, whose body and Retry-After stay as the spec says', async () => {
    startNextWindow(15);
    for (let sent = 0; sent < 100; sent += 25) {
      await Promise.all(Array.from({ length: 25 }, () => request(service, 'GET', '/api/v1/me')));
    }
    const limited = await request(service, 'GET', '/api/v1/me');
    expect(limited.status).toBe(429);
    expect(limited.body).toStrictEqual({ error: 'Rate limit exceeded', code: 'rate_limited' });
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.headers.get('x-request-id')).toBeNull();
    expect(limited.headers.get('ratelimit')).toBe('"per-ip";r=0;t=45');
    expect(limited.headers.get('ratelimit-policy')).toBe('"per-ip";q=100;w=60');
  });

  it('show the per-IP quota of the client portal on its answers', async () => {
    startNextWindow(30);
    const answer = await request(service, 'GET', `/portal/v1/onboardings/${'0'.repeat(64)}`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('ratelimit-policy')).toBe('"per-ip";q=300;w=60');
    expect(answer.headers.get('ratelimit')).toBe('"per-ip";r=299;t=30');
  });
});
