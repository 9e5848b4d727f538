/**
 * Sign-in limits under bursts, across instances and across a restart (issue 26, point 2):
 * every attempt reserves its count before its password or code is checked, and the limits
 * are checked again right before a session is issued. Counters live in PostgreSQL without
 * REDIS_URL and in Redis with it, never in one process's memory.
 */
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../../shared/db/pool.ts';
import {
  FAILURE_WINDOW_SECONDS,
  IP_FAILURE_LIMIT,
  LOCK_AFTER,
} from '../../../services/access/workspace/sign-in-throttle.ts';
import { alignClockToWindow } from '../../helpers/clock-windows.ts';
import { createTestDatabase } from '../../helpers/database.ts';
import { startTestRedis, type TestRedis } from '../../helpers/redis-server.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';

const password = 'correct horse battery staple';
const BURST = 60;

type Answer = Awaited<ReturnType<Browser['call']>>;

/** Each body signs in from its own browser; all are sent at once, in order (Promise.all). */
function sendAll(bodies: { service: TestService; body: object; headers?: Record<string, string> }[]) {
  return Promise.all(
    bodies.map(({ service, body, headers }) =>
      new Browser(service, headers).call('POST', '/workspace/v1/sessions', body),
    ),
  );
}

/** No answer of the burst is a session: no 200, no cookie, and no new session row. */
async function expectNoSession(service: TestService, memberId: string, answers: Answer[], before: number) {
  expect(answers.map((answer) => answer.status)).not.toContain(200);
  for (const answer of answers) expect(answer.setCookie).toBeNull();
  expect(await sessionCount(service, memberId)).toBe(before);
  // At most LOCK_AFTER attempts reached a password check; the others were refused before it.
  expect(answers.filter((answer) => answer.status === 401).length).toBeLessThanOrEqual(LOCK_AFTER);
}

async function sessionCount(service: TestService, memberId: string): Promise<number> {
  const { rows } = await service.context.pool.query<{ count: string }>(
    'select count(*) from workspace_sessions where member_id = $1',
    [memberId],
  );
  return Number(rows[0]!.count);
}

const wrongPasswords = (service: TestService, email: string) =>
  Array.from({ length: BURST }, (_, index) => ({
    service,
    body: { email, password: `a wrong password number ${index}` },
  }));

describe('one instance, counters in PostgreSQL', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMITS: 'on' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('60 wrong passwords and then the right one, sent at once: no session, and the account stays locked', async () => {
    const email = 'burst-password@example.com';
    const { memberId } = await signUp(service, email, password, 'Burst');
    alignClockToWindow(service.clock, FAILURE_WINDOW_SECONDS);
    const before = await sessionCount(service, memberId);
    const answers = await sendAll([
      ...wrongPasswords(service, email),
      { service, body: { email, password } },
    ]);
    await expectNoSession(service, memberId, answers, before);
    expect(answers.at(-1)!.status).toBe(429);
    expect(answers.at(-1)!.body.code).toBe('sign_in_locked');
    expect(Number(answers.at(-1)!.headers.get('retry-after'))).toBeGreaterThan(0);

    const afterwards = await new Browser(service).call('POST', '/workspace/v1/sessions', { email, password });
    expect(afterwards.status).toBe(429);
    expect(afterwards.body.code).toBe('sign_in_locked');
  }, 120_000);

  it('right password, 60 wrong two-factor codes and then the right code, sent at once: no session', async () => {
    const email = 'burst-totp@example.com';
    const { owner, memberId } = await signUp(service, email, password, 'Burst TOTP');
    const started = await owner.call('POST', '/workspace/v1/me/totp');
    const secret = started.body.secret as string;
    const code = () =>
      new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
        timestamp: service.clock.now().getTime(),
      });
    expect((await owner.call('POST', '/workspace/v1/me/totp/confirm', { code: code() })).status).toBe(200);
    alignClockToWindow(service.clock, FAILURE_WINDOW_SECONDS); // also a fresh 30-second code step
    const right = code();
    const wrong = (index: number) => String((Number(right) + 1 + index) % 1_000_000).padStart(6, '0');
    const before = await sessionCount(service, memberId);

    const answers = await sendAll([
      ...Array.from({ length: BURST }, (_, index) => ({
        service,
        body: { email, password, totp: wrong(index) },
      })),
      { service, body: { email, password, totp: right } },
    ]);
    await expectNoSession(service, memberId, answers, before);
    expect(answers.at(-1)!.status).toBe(429);
    for (const answer of answers) {
      expect(['totp_invalid', 'sign_in_locked', 'sign_in_slowed_down', 'sign_in_rate_limited']).toContain(
        answer.body.code,
      );
    }
  }, 120_000);
});

describe('two instances sharing Redis', () => {
  let redis: TestRedis;
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    redis = await startTestRedis();
    a = await startTestService({ RATE_LIMITS: 'on', REDIS_URL: redis.url });
    b = await startTestService({ RATE_LIMITS: 'on', REDIS_URL: redis.url }, { sharedWith: a });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await redis?.stop();
  });

  it('a burst split over both instances, the right password last: no session', async () => {
    const email = 'burst-two-instances@example.com';
    const { memberId } = await signUp(a, email, password, 'Two');
    alignClockToWindow(a.clock, FAILURE_WINDOW_SECONDS);
    b.clock.set(a.clock.now());
    const before = await sessionCount(a, memberId);
    const wrong = wrongPasswords(a, email).map((entry, index) => ({ ...entry, service: index % 2 ? b : a }));
    const answers = await sendAll([...wrong, { service: b, body: { email, password } }]);
    await expectNoSession(a, memberId, answers, before);
  }, 120_000);

  it('the per-IP limit counts failures on both instances', async () => {
    alignClockToWindow(a.clock, FAILURE_WINDOW_SECONDS);
    b.clock.set(a.clock.now());
    const half = IP_FAILURE_LIMIT / 2;
    const guesses = (service: TestService, from: number) =>
      Array.from({ length: half }, (_, index) => ({
        service,
        body: { email: `nobody-${from + index}@example.com`, password: 'a wrong long password' },
      }));
    const first = await sendAll(guesses(a, 0));
    const second = await sendAll(guesses(b, half));
    expect(new Set([...first, ...second].map((answer) => answer.status))).toEqual(new Set([401]));
    const refused = await new Browser(a).call('POST', '/workspace/v1/sessions', {
      email: 'nobody-else@example.com',
      password: 'a wrong long password',
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('sign_in_rate_limited');
  }, 120_000);

  it('while Redis is down, sign-in is refused 503 (retryable) rather than checked without a limit', async () => {
    const email = 'redis-down@example.com';
    alignClockToWindow(a.clock, FAILURE_WINDOW_SECONDS);
    b.clock.set(a.clock.now());
    await signUp(a, email, password, 'Redis down');
    await redis.stop();
    for (const service of [a, b]) {
      const answer = await new Browser(service).call('POST', '/workspace/v1/sessions', { email, password });
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'service_unavailable', retryable: true });
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.setCookie).toBeNull();
    }
  }, 120_000);
});

describe('a restart (counters in PostgreSQL)', () => {
  it('failures counted before a restart still count after it', async () => {
    const database = await createTestDatabase();
    const first = await startTestService(
      { RATE_LIMITS: 'on' },
      { database: { ...database, drop: async () => undefined } },
    );
    let second: TestService | undefined;
    try {
      const email = 'restart@example.com';
      await signUp(first, email, password, 'Restart');
      alignClockToWindow(first.clock, FAILURE_WINDOW_SECONDS);
      const guess = (service: TestService, index: number) => ({
        service,
        body: { email: `restart-guess-${index}@example.com`, password: 'a wrong long password' },
      });
      const before = await sendAll(Array.from({ length: 30 }, (_, index) => guess(first, index)));
      expect(new Set(before.map((answer) => answer.status))).toEqual(new Set([401]));
      const at = first.clock.now();
      await first.stop();

      second = await startTestService(
        { RATE_LIMITS: 'on' },
        { database: { ...database, pool: createPool(database.url, 20) } },
      );
      second.clock.set(at);
      const after = await sendAll(
        Array.from({ length: IP_FAILURE_LIMIT - 30 }, (_, index) => guess(second!, 30 + index)),
      );
      expect(new Set(after.map((answer) => answer.status))).toEqual(new Set([401]));
      const refused = await new Browser(second).call('POST', '/workspace/v1/sessions', { email, password });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('sign_in_rate_limited');
    } finally {
      await second?.stop();
      await database.drop();
    }
  }, 120_000);
});
