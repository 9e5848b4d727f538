import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';

/**
 * Two-factor sign-in over HTTP: setup and confirmation with a code an authenticator app
 * computes from the returned secret, sign-in refusals (missing, wrong, replayed code),
 * and turning it off only after a re-authentication.
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'on' });
});

afterAll(async () => {
  await service?.stop();
});

const email = 'totp-owner@example.com';
const password = 'correct horse battery staple';

/** What the member's authenticator app shows now (service clock). */
const codeNow = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: service.clock.now().getTime(),
  });

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('two-factor sign-in', () => {
  it('is set up, then asked for, refused when wrong or replayed, and turned off after re-authentication', async () => {
    const { owner } = await signUp(service, email, password);

    const started = await owner.call('POST', '/workspace/v1/me/totp');
    expect(started.status).toBe(200);
    const secret = started.body.secret as string;
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const fromUri = OTPAuth.URI.parse(started.body.otpauth_uri as string) as OTPAuth.TOTP;
    expect(fromUri.secret.base32).toBe(secret);
    expect(fromUri.label).toBe(email);

    // Until confirmed, sign-in does not ask for a code.
    const whilePending = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password,
    });
    expect(whilePending.status).toBe(200);

    const badConfirm = await owner.call('POST', '/workspace/v1/me/totp/confirm', {
      code: wrongCode(codeNow(secret)),
    });
    expect(badConfirm.status).toBe(400);
    expect(badConfirm.body.code).toBe('totp_invalid');
    const confirmCode = codeNow(secret);
    const confirmed = await owner.call('POST', '/workspace/v1/me/totp/confirm', { code: confirmCode });
    expect(confirmed.status).toBe(200);

    // Without a code: a clear code asking for it (the password was right).
    const withoutCode = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password,
    });
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body.code).toBe('totp_required');
    expect(withoutCode.body.message).toMatch(/6-digit code/);
    expect(withoutCode.setCookie).toBeNull();

    // The code used to confirm cannot sign in within its window.
    const replayedConfirm = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password,
      totp: confirmCode,
    });
    expect(replayedConfirm.status).toBe(401);
    expect(replayedConfirm.body.code).toBe('totp_invalid');

    service.clock.advance(30);
    const wrong = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password,
      totp: wrongCode(codeNow(secret)),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('totp_invalid');
    expect(wrong.setCookie).toBeNull();

    // A wrong password with a right code is the ordinary refusal (nothing says the code was right).
    const wrongPassword = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password: 'not the password at all',
      totp: codeNow(secret),
    });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.code).toBe('invalid_credentials');

    const code = codeNow(secret);
    const phone = new Browser(service);
    const right = await phone.call('POST', '/workspace/v1/sessions', { email, password, totp: code });
    expect(right.status).toBe(200);
    expect((await phone.call('GET', '/workspace/v1/me')).status).toBe(200);

    // The same code a second time within its window is refused.
    const replayed = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password,
      totp: code,
    });
    expect(replayed.status).toBe(401);
    expect(replayed.body.code).toBe('totp_invalid');

    // Turning it off needs a re-authentication within 5 minutes.
    const notConfirmed = await phone.call('DELETE', '/workspace/v1/me/totp');
    expect(notConfirmed.status).toBe(403);
    expect(notConfirmed.body.code).toBe('reauthentication_required');
    const reauthWithUsedCode = await phone.call('POST', '/workspace/v1/sessions/current/reauth', {
      totp: code,
    });
    expect(reauthWithUsedCode.status).toBe(401);
    service.clock.advance(30);
    const reauth = await phone.call('POST', '/workspace/v1/sessions/current/reauth', {
      totp: codeNow(secret),
    });
    expect(reauth.status).toBe(200);
    service.clock.advance(5 * 60 + 1);
    const tooLate = await phone.call('DELETE', '/workspace/v1/me/totp');
    expect(tooLate.body.code).toBe('reauthentication_required');
    expect((await phone.call('POST', '/workspace/v1/sessions/current/reauth', { password })).status).toBe(
      200,
    );
    const off = await phone.call('DELETE', '/workspace/v1/me/totp');
    expect(off.status).toBe(200);

    const plain = await new Browser(service).call('POST', '/workspace/v1/sessions', { email, password });
    expect(plain.status).toBe(200);
  }, 60_000);
});
