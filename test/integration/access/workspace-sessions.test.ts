import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';
import { alignClockToWindow } from '../../helpers/clock-windows.ts';
import { FAILURE_WINDOW_SECONDS } from '../../../services/access/workspace/sign-in-throttle.ts';

/**
 * Sessions over HTTP: signing out everywhere ends every session of the account, removing a
 * member ends theirs at once, and the per-IP limit of failed sign-ins refuses that IP only
 * (behind a trusted proxy, the IP is the X-Forwarded-For client).
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'on', TRUST_PROXY: 'on' });
});

afterAll(async () => {
  await service?.stop();
});

const password = 'correct horse battery staple';

describe('workspace sessions', () => {
  it('signs out everywhere from one session', async () => {
    const email = 'everywhere@example.com';
    const { owner: first } = await signUp(service, email, password, 'Everywhere');
    const second = new Browser(service);
    expect((await second.call('POST', '/workspace/v1/sessions', { email, password })).status).toBe(200);
    expect(second.cookie).not.toBe(first.cookie);
    const other = await signUp(service, 'bystander@example.com', password, 'Bystander');

    const ended = await first.call('POST', '/workspace/v1/sessions/end-all');
    expect(ended.status).toBe(200);
    for (const browser of [first, second]) {
      const me = await browser.call('GET', '/workspace/v1/me');
      expect(me.status).toBe(401);
    }
    // Another account's session is untouched.
    expect((await other.owner.call('GET', '/workspace/v1/me')).status).toBe(200);
    // The account still signs in.
    expect(
      (await new Browser(service).call('POST', '/workspace/v1/sessions', { email, password })).status,
    ).toBe(200);
  }, 60_000);

  it("ends a removed member's sessions at once", async () => {
    const { owner } = await signUp(service, 'remover@example.com', password, 'Removers');
    const { browser: member, memberId } = await addMember(service, owner, 'removed@example.com', 'member');
    const laptop = new Browser(service);
    expect(
      (
        await laptop.call('POST', '/workspace/v1/sessions', {
          email: 'removed@example.com',
          password: 'a member long passphrase',
        })
      ).status,
    ).toBe(200);
    expect((await member.call('GET', '/workspace/v1/me')).status).toBe(200);

    expect((await owner.call('DELETE', `/workspace/v1/members/${memberId}`)).status).toBe(200);
    for (const browser of [member, laptop]) {
      expect((await browser.call('GET', '/workspace/v1/me')).status).toBe(401);
    }
    const signIn = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email: 'removed@example.com',
      password: 'a member long passphrase',
    });
    expect(signIn.status).toBe(401);
  }, 60_000);

  it('refuses an IP after 50 failed sign-ins across emails, and only that IP', async () => {
    const email = 'per-ip@example.com';
    await signUp(service, email, password, 'Per IP');
    const attacker = new Browser(service, { 'x-forwarded-for': '203.0.113.7' });
    alignClockToWindow(service.clock, FAILURE_WINDOW_SECONDS);
    for (let attempt = 1; attempt <= 50; attempt += 1) {
      const failed = await attacker.call('POST', '/workspace/v1/sessions', {
        email: `guess-${attempt}@example.com`,
        password: 'a wrong long password',
      });
      expect(failed.status, `attempt ${attempt}`).toBe(401);
    }
    for (const body of [
      { email: 'guess-51@example.com', password: 'a wrong long password' },
      { email, password },
    ]) {
      const refused = await attacker.call('POST', '/workspace/v1/sessions', body);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('sign_in_rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    const elsewhere = await new Browser(service, { 'x-forwarded-for': '198.51.100.20' }).call(
      'POST',
      '/workspace/v1/sessions',
      { email, password },
    );
    expect(elsewhere.status).toBe(200);
  }, 120_000);
});
