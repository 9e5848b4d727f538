import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_IN_HINT_COOKIE } from '../../../services/access/contract/signed-in-hint.ts';
import { SESSION_COOKIE } from '../../../services/access/workspace/workspace-session.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { signUp } from '../workspace-fixtures.ts';

/**
 * The signed-in hint (services/access/contract/signed-in-hint.ts) over real HTTP: signing in
 * sets it beside the session, readable by the page and granting nothing; signing out clears
 * both.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const cookieNamed = (cookies: string[], name: string) =>
  cookies.find((cookie) => cookie.startsWith(`${name}=`));

describe('the signed-in hint', () => {
  it('comes with the session, readable by the page, and goes with it', async () => {
    const password = 'a long hint passphrase 5521';
    const { owner } = await signUp(service, 'hint.owner@example.com', password, 'Hint Team');
    const signedIn = await owner.call('POST', '/workspace/v1/sessions', {
      email: 'hint.owner@example.com',
      password,
    });
    const cookies = signedIn.headers.getSetCookie();
    expect(cookies[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(cookieNamed(cookies, SESSION_COOKIE)).toMatch(/HttpOnly/i);
    const hint = cookieNamed(cookies, SIGNED_IN_HINT_COOKIE);
    expect(hint).toMatch(new RegExp(`^${SIGNED_IN_HINT_COOKIE}=1;`));
    expect(hint).not.toMatch(/HttpOnly/i);
    expect(hint).toMatch(/SameSite=Strict/i);
    expect(hint).toMatch(/Path=\//);
    expect(hint).toMatch(/Max-Age=\d+/);

    // The hint alone is no session.
    const hintOnly = await fetch(`${service.url}/workspace/v1/me`, {
      headers: { cookie: `${SIGNED_IN_HINT_COOKIE}=1` },
    });
    expect(hintOnly.status).toBe(401);

    const signedOut = await owner.call('DELETE', '/workspace/v1/sessions/current');
    expect(signedOut.status).toBe(200);
    const cleared = signedOut.headers.getSetCookie();
    expect(cookieNamed(cleared, SESSION_COOKIE)).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(cookieNamed(cleared, SIGNED_IN_HINT_COOKIE)).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});
