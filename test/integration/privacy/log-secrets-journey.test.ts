import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecrets } from '../../helpers/run-log.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';
import { createTenant, portal, sentOnboarding } from '../portal-fixtures.ts';
import { Browser, capturedLogger, lastEmailTo, linkToken, signUp } from '../workspace-fixtures.ts';

/**
 * No secret the service hands out or takes in reaches its log: a journey through the
 * public API, the client form's portal and the workspace runs against a service logging
 * at trace level into a buffer, collecting every secret it meets (API keys, the operator
 * token, a client token and PIN, session ids, CSRF tokens, passwords, the hook signing
 * secret, a webhook endpoint's secret). The whole log is then searched for each of them,
 * as written and URL-encoded. The service runs without SMTP_URL, so its invitation and
 * reset links appear in exactly one line each: the deliberate info line a local user opens
 * (README, "Logs"); with SMTP_URL that line is not written (workspace-mail.test.ts).
 */

let service: TestService;
const captured = capturedLogger();
const secrets = new Map<string, string>();

const keep = (what: string, value: string | undefined) => {
  expect(value, what).toBeTruthy();
  secrets.set(what, value!);
  registerSecrets(value);
};
/** Account link tokens: allowed only in the one info line that hands a local user the link. */
const accountLinks = new Map<string, string>();
const sessionId = (browser: Browser) => browser.cookie.split('=').slice(1).join('=');

beforeAll(async () => {
  service = await startTestService(
    { RATE_LIMITS: 'on', HOOK_TARGET_ALLOWLIST: 'hooks.example.com' },
    { logger: captured.logger },
  );
}, 60_000);
afterAll(async () => service?.stop());

describe('the log of a whole journey', () => {
  it('holds none of the secrets the journey made or used', async () => {
    keep('operator token', ADMIN_TOKEN);

    // Public API: a key, an onboarding sent with a PIN, its link used by the client.
    const pin = '731905';
    const tenant = await createTenant(service);
    keep('api key', tenant.apiKey);
    const { token } = await sentOnboarding(service, tenant, { send: { pin } });
    keep('client token', token);
    keep('pin', pin);
    await fetch(`${service.url}/f/${token}`);
    await fetch(`${service.url}/portal/v1/onboardings/${token}?pin=${pin}`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect((await portal(service, token, 'GET', '', { pin })).status).toBe(200);
    expect((await portal(service, token, 'GET', '', { pin: '000000' })).status).toBe(401);
    expect((await fetch(`${service.url}/f/${token}/nothing/${pin}`)).status).toBe(404);

    // Workspace: sign-up, sign-in, a key, an invitation, a reset, hook secrets.
    const password = 'journey owner long passphrase';
    const email = 'journey-owner@example.com';
    keep('owner password', password);
    const { owner } = await signUp(service, email, password, 'Journey');
    keep('owner session id', sessionId(owner));
    keep('owner csrf token', owner.csrf);
    expect((await owner.call('POST', '/workspace/v1/sessions/current/reauth', { password })).status).toBe(
      200,
    );

    const key = await owner.call(
      'POST',
      '/workspace/v1/api-keys',
      { name: 'Journey', scopes: ['clients:read'] },
      { 'idempotency-key': 'journey-key' },
    );
    expect(key.status).toBe(201);
    keep('workspace api key', key.body.secret);
    const me = await fetch(`${service.url}/api/v1/me`, {
      headers: { authorization: `Bearer ${key.body.secret}` },
    });
    expect(me.status).toBe(200);

    const signingSecret = await owner.call('GET', '/workspace/v1/hook-signing-secret');
    expect(signingSecret.status).toBe(200);
    keep('hook signing secret', signingSecret.body.secret);
    const endpoint = await owner.call('POST', '/workspace/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/journey',
      event_types: ['onboarding.sent'],
    });
    expect(endpoint.status).toBe(201);
    keep('webhook endpoint secret', endpoint.body.secret);

    const memberEmail = 'journey-member@example.com';
    const memberPassword = 'journey member long passphrase';
    keep('member password', memberPassword);
    const invite = await owner.call('POST', '/workspace/v1/invitations', {
      email: memberEmail,
      name: 'Mia Member',
      role: 'member',
    });
    expect(invite.status).toBe(201);
    const invitation = linkToken(await lastEmailTo(service, memberEmail));
    accountLinks.set('invitation email', invitation);
    const member = new Browser(service);
    const accepted = await member.call('POST', `/workspace/v1/invitations/${invitation}/accept`, {
      name: 'Mia Member',
      password: memberPassword,
    });
    expect(accepted.status).toBe(201);
    keep('member session id', sessionId(member));
    keep('member csrf token', member.csrf);

    service.clock.advance(1); // the reset email is the newest one
    const anonymous = new Browser(service);
    expect(
      (await anonymous.call('POST', '/workspace/v1/password-resets', { email: memberEmail })).status,
    ).toBe(202);
    const reset = linkToken(await lastEmailTo(service, memberEmail));
    accountLinks.set('password reset email', reset);
    const newPassword = 'journey member new passphrase';
    keep('new password', newPassword);
    expect(
      (await anonymous.call('POST', `/workspace/v1/password-resets/${reset}`, { password: newPassword }))
        .status,
    ).toBe(200);
    const signIn = new Browser(service);
    const signedIn = await signIn.call('POST', '/workspace/v1/sessions', {
      email: memberEmail,
      password: newPassword,
    });
    expect(signedIn.status).toBe(200);
    keep('signed-in session id', sessionId(signIn));
    expect((await signIn.call('GET', '/workspace/v1/me')).status).toBe(200);
    const wrong = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email: memberEmail,
      password: `${newPassword}!`,
    });
    expect(wrong.status).toBe(401);
    keep('wrong password', `${newPassword}!`);

    const drained = await fetch(`${service.url}/admin/v1/work/drain`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(drained.status).toBe(200);

    const log = captured.lines.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('"route":"/workspace/v1/password-resets/:token"');
    const found = [...secrets].filter(([, value]) =>
      [value, encodeURIComponent(value), value.toLowerCase()].some((form) => log.includes(form)),
    );
    const lines = found.map(
      ([what, value]) => `${what}: ${captured.lines.find((line) => line.includes(value))}`,
    );
    expect(lines).toEqual([]);
    for (const [what, token] of accountLinks) {
      const withToken = captured.lines.filter((line) => line.includes(token));
      expect(withToken, what).toHaveLength(1);
      expect(JSON.parse(withToken[0]!)).toMatchObject({
        level: 30,
        msg: `${what} queued (no SMTP_URL: nothing is sent; open this link to continue)`,
      });
    }
  });
});
