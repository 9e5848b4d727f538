import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pinHashRuns } from '../../../services/onboardings/link-secrets.ts';
import {
  LINK_SESSION_IDLE_SECONDS,
  LINK_SESSION_LIFETIME_SECONDS,
} from '../../../services/onboardings/portal/portal-link-sessions.ts';
import { PIN_CHECKS_PER_LINK_LIMIT } from '../../../services/onboardings/portal/portal-rate-limits.ts';
import { registerSecrets } from '../../helpers/run-log.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import type { HttpAnswer } from '../../helpers/tenant.ts';
import { advanceClock, createTenant, portal, send, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/*
 * The portal's link session (docs/decisions/0004-portal-link-sessions.md), over real HTTP
 * with rate limits on and the default rate-limit store: a right PIN sent to
 * POST .../session answers an HttpOnly cookie; requests that carry it skip the PIN check
 * (no scrypt, no PIN counters) until it ends.
 */

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService();
  tenant = await createTenant(service);
});
afterAll(async () => service?.stop());
// A fresh minute for the per-minute limits of each test.
beforeEach(async () => {
  await advanceClock(service, 60);
});

const PIN = '518273';

interface SessionCookie {
  name: string;
  value: string;
  attributes: string[];
  /** The Cookie request header that sends it back. */
  header: string;
}

function sessionCookie(answer: HttpAnswer): SessionCookie {
  const cookies = answer.headers.getSetCookie();
  expect(cookies).toHaveLength(1);
  const [pair, ...attributes] = cookies[0]!.split(';').map((part) => part.trim());
  const [name, value] = pair!.split('=') as [string, string];
  registerSecrets(value);
  return { name, value, attributes, header: `${name}=${value}` };
}

async function openSession(token: string, pin = PIN): Promise<SessionCookie> {
  const answer = await portal(service, token, 'POST', '/session', { pin });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return sessionCookie(answer);
}

const withCookie = (cookie: SessionCookie | string) => ({
  headers: { cookie: typeof cookie === 'string' ? cookie : cookie.header },
});

describe('POST /portal/v1/onboardings/:token/session', () => {
  it('a right PIN answers the session cookie: HttpOnly, SameSite=Strict, the portal path, not stored by caches', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const answer = await portal(service, token, 'POST', '/session', { pin: PIN });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      expires_at: new Date(
        service.clock.now().getTime() + LINK_SESSION_LIFETIME_SECONDS * 1000,
      ).toISOString(),
      idle_timeout_seconds: LINK_SESSION_IDLE_SECONDS,
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const cookie = sessionCookie(answer);
    expect(cookie.name).toMatch(/^portal_link_[0-9a-f]{20}$/);
    expect(cookie.value).toMatch(/^[0-9a-f]{64}$/);
    // The token stays out of the cookie: neither its name nor its path carries it.
    expect(cookie.header).not.toContain(token);
    expect(cookie.attributes).toEqual(
      expect.arrayContaining([
        'Path=/portal/v1/onboardings/',
        'HttpOnly',
        'SameSite=Strict',
        `Max-Age=${LINK_SESSION_LIFETIME_SECONDS}`,
      ]),
    );
    // The service is reached over http here (PUBLIC_URL http://...): no Secure.
    expect(cookie.attributes).not.toContain('Secure');
    // The table keeps the id's hash only.
    const { rows } = await service.database.pool.query<{ id_hash: string }>(
      'select id_hash from portal_link_sessions',
    );
    expect(rows.map((row) => row.id_hash)).not.toContain(cookie.value);
  });

  it('Secure when the service is reached over https (PUBLIC_URL https://...), as the workspace cookie', async () => {
    const secure = await startTestService({ PUBLIC_URL: 'https://forms.example.com' });
    try {
      const secureTenant = await createTenant(secure);
      const { token } = await sentOnboarding(secure, secureTenant, { send: { pin: PIN } });
      const answer = await portal(secure, token, 'POST', '/session', { pin: PIN });
      expect(answer.status).toBe(200);
      expect(sessionCookie(answer).attributes).toContain('Secure');
    } finally {
      await secure.stop();
    }
  });

  it('a wrong or missing PIN: 401 pin_required and no cookie; a link without a PIN needs no session', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    for (const pin of ['000000', undefined]) {
      const refused = await portal(service, token, 'POST', '/session', { pin });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('pin_required');
      expect(refused.headers.getSetCookie()).toEqual([]);
    }
    const open = await sentOnboarding(service, tenant);
    const answer = await portal(service, open.token, 'POST', '/session');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ expires_at: null, idle_timeout_seconds: LINK_SESSION_IDLE_SECONDS });
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('an inactive link answers 404 link_inactive', async () => {
    const answer = await portal(service, 'a'.repeat(64), 'POST', '/session', { pin: PIN });
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('link_inactive');
  });
});

describe('a visit with a link session', () => {
  it('hashes the PIN once for the open and 50 autosaves; the face says the session is live', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const before = pinHashRuns();
    const cookie = await openSession(token);
    expect((await portal(service, token, 'GET', '/face', withCookie(cookie))).body.link).toEqual({
      state: 'pin_required',
      retry_after_seconds: null,
      session: true,
    });
    expect((await portal(service, token, 'GET', '', withCookie(cookie))).status).toBe(200);
    // Five at a time, as a form in two tabs might: one onboarding's commands queue on its stream.
    const saves: HttpAnswer[] = [];
    for (let start = 0; start < 50; start += 5) {
      const batch = await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
            ...withCookie(cookie),
            body: { value: `Ada ${start + index}` },
          }),
        ),
      );
      saves.push(...batch);
    }
    expect(saves.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(pinHashRuns() - before).toBe(1);
    // Without the cookie, the face and the portal still ask for the PIN.
    expect((await portal(service, token, 'GET', '/face')).body.link.session).toBe(false);
    expect((await portal(service, token, 'GET')).status).toBe(401);
  });

  it(`${PIN_CHECKS_PER_LINK_LIMIT + 10} autosaves in a minute all answer 200: they never count as PIN checks`, async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const cookie = await openSession(token);
    const count = PIN_CHECKS_PER_LINK_LIMIT + 10;
    const statuses: number[] = [];
    for (let start = 0; start < count; start += 5) {
      const batch = await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          portal(service, token, 'PUT', `/answers/${tenant.ids.fields.nickname}`, {
            ...withCookie(cookie),
            body: { value: `Ada ${start + index}` },
          }),
        ),
      );
      statuses.push(...batch.map((answer) => answer.status));
    }
    expect(statuses).toEqual(Array(count).fill(200));
    // The header still works for integrations, and has its checks left in this minute.
    expect((await portal(service, token, 'GET', '', { pin: PIN })).status).toBe(200);
  });

  it('the X-Onboarding-Pin header keeps working without a cookie, and hashes each time', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const before = pinHashRuns();
    for (let i = 0; i < 3; i++)
      expect((await portal(service, token, 'GET', '', { pin: PIN })).status).toBe(200);
    expect(pinHashRuns() - before).toBe(3);
  });

  it('is bound to its link: the id under another link’s cookie name opens nothing', async () => {
    const first = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const second = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const cookie = await openSession(first.token);
    const other = await openSession(second.token);
    expect(other.name).not.toBe(cookie.name);
    expect(
      (await portal(service, second.token, 'GET', '', withCookie(`${other.name}=${cookie.value}`))).status,
    ).toBe(401);
    // Both cookies at once (one browser, two links): each link takes its own.
    const both = `${cookie.header}; ${other.header}`;
    expect((await portal(service, first.token, 'GET', '', withCookie(both))).status).toBe(200);
    expect((await portal(service, second.token, 'GET', '', withCookie(both))).status).toBe(200);
  });

  it(`ends ${LINK_SESSION_IDLE_SECONDS / 60} minutes after its last request, and ${LINK_SESSION_LIFETIME_SECONDS / 3600} hours after it opened`, async () => {
    const { token } = await sentOnboarding(service, tenant, {
      send: { pin: PIN },
      create: { expires_at: null },
    });
    const idle = await openSession(token);
    await advanceClock(service, LINK_SESSION_IDLE_SECONDS - 90);
    expect((await portal(service, token, 'GET', '', withCookie(idle))).status).toBe(200);
    // That request restarted its idle time.
    await advanceClock(service, LINK_SESSION_IDLE_SECONDS - 90);
    expect((await portal(service, token, 'GET', '', withCookie(idle))).status).toBe(200);
    await advanceClock(service, LINK_SESSION_IDLE_SECONDS + 1);
    const ended = await portal(service, token, 'GET', '', withCookie(idle));
    expect(ended.status).toBe(401);
    expect(ended.body.code).toBe('pin_required');

    const busy = await openSession(token);
    let elapsed = 0;
    while (elapsed + LINK_SESSION_IDLE_SECONDS / 2 < LINK_SESSION_LIFETIME_SECONDS) {
      await advanceClock(service, LINK_SESSION_IDLE_SECONDS / 2);
      elapsed += LINK_SESSION_IDLE_SECONDS / 2;
      expect((await portal(service, token, 'GET', '', withCookie(busy))).status, `after ${elapsed} s`).toBe(
        200,
      );
    }
    await advanceClock(service, LINK_SESSION_LIFETIME_SECONDS - elapsed + 1);
    expect((await portal(service, token, 'GET', '', withCookie(busy))).status).toBe(401);
  });

  it('keeps working while wrong PINs lock the link; the PIN itself is refused then', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const cookie = await openSession(token);
    for (let i = 0; i < 10; i++) {
      expect((await portal(service, token, 'GET', '', { pin: '000000' })).status).toBe(401);
    }
    expect((await portal(service, token, 'GET', '', { pin: PIN })).status).toBe(429);
    expect((await portal(service, token, 'POST', '/session', { pin: PIN })).status).toBe(429);
    const face = await portal(service, token, 'GET', '/face', withCookie(cookie));
    expect(face.body.link).toMatchObject({ state: 'pin_locked', session: true });
    expect((await portal(service, token, 'GET', '', withCookie(cookie))).status).toBe(200);
  });

  it('ends with its link: a resend makes the old token and its session inactive', async () => {
    const { token, onboardingId } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const cookie = await openSession(token);
    expect((await portal(service, token, 'GET', '', withCookie(cookie))).status).toBe(200);
    await send(service, tenant, onboardingId, { pin: '664422' });
    expect((await portal(service, token, 'GET', '', withCookie(cookie))).status).toBe(404);
  });
});
