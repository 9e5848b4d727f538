/**
 * TRUST_PROXY (issue 26, point 3): the client IP is the X-Forwarded-For entry appended by
 * the nearest trusted proxy, never a left-most entry the client wrote. The tests run on
 * loopback, so the test itself plays the proxy on this machine: with TRUST_PROXY=1 (or the
 * proxy's address, `loopback`) the entry it appends last is the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAILURE_WINDOW_SECONDS,
  IP_FAILURE_LIMIT,
} from '../../../services/access/workspace/sign-in-throttle.ts';
import { alignClockToWindow } from '../../helpers/clock-windows.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';

const password = 'correct horse battery staple';

/** A left-most entry a client made up: a new one on every request. */
let spoofed = 0;
const spoof = () => `10.${Math.floor(++spoofed / 250) % 250}.${spoofed % 250}.${(spoofed * 7) % 250}`;

describe('TRUST_PROXY=1 (one proxy in front)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMITS: 'on', TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('a left-most entry varied on every request does not escape the per-IP sign-in limit', async () => {
    const email = 'behind-proxy@example.com';
    await signUp(service, email, password, 'Proxy');
    alignClockToWindow(service.clock, FAILURE_WINDOW_SECONDS);
    const client = '203.0.113.7';
    const answers = await Promise.all(
      Array.from({ length: IP_FAILURE_LIMIT + 10 }, (_, index) =>
        new Browser(service, { 'x-forwarded-for': `${spoof()}, ${client}` }).call(
          'POST',
          '/workspace/v1/sessions',
          { email: `guess-${index}@example.com`, password: 'a wrong long password' },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(IP_FAILURE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);

    // The right password from the same client, whatever it writes on the left: refused.
    const refused = await new Browser(service, {
      'x-forwarded-for': `127.0.0.1, ${spoof()}, ${client}`,
    }).call('POST', '/workspace/v1/sessions', { email, password });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('sign_in_rate_limited');

    // Another client behind the same proxy is not refused.
    const other = await new Browser(service, { 'x-forwarded-for': `${client}, 198.51.100.20` }).call(
      'POST',
      '/workspace/v1/sessions',
      { email, password },
    );
    expect(other.status).toBe(200);
  }, 120_000);

  it('GET /metrics is not reached through X-Forwarded-For: 127.0.0.1, <a public client>', async () => {
    for (const chain of ['127.0.0.1, 203.0.113.9', '127.0.0.1, ::1, 203.0.113.9', '::1, 198.51.100.3']) {
      const answer = await fetch(`${service.url}/metrics`, { headers: { 'x-forwarded-for': chain } });
      expect(answer.status, chain).toBe(404);
    }
    // The proxy on this machine forwarding a client on this machine: answered.
    expect(
      (await fetch(`${service.url}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status,
    ).toBe(200);
    expect((await fetch(`${service.url}/metrics`)).status).toBe(200);
  });
});

describe('TRUST_PROXY=loopback (the proxy named by its address)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMITS: 'off', TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('GET /metrics answers 404 when the entry the trusted proxy appended is a public address', async () => {
    for (const chain of ['127.0.0.1, 203.0.113.9', '127.0.0.1, 203.0.113.9, 127.0.0.1']) {
      const answer = await fetch(`${service.url}/metrics`, { headers: { 'x-forwarded-for': chain } });
      expect(answer.status, chain).toBe(404);
    }
    expect((await fetch(`${service.url}/metrics`)).status).toBe(200);
  });
});

describe('TRUST_PROXY=on', () => {
  it('means one proxy: a spoofed left-most entry is not the client', async () => {
    const service = await startTestService({ RATE_LIMITS: 'off', TRUST_PROXY: 'on' });
    try {
      expect(service.context.settings.TRUST_PROXY).toBe(1);
      const answer = await fetch(`${service.url}/metrics`, {
        headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
      });
      expect(answer.status).toBe(404);
    } finally {
      await service.stop();
    }
  });
});
