import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest } from '../../helpers/tenant.ts';
import { Browser, capturedLogger, lastEmailTo, linkToken, signUp } from '../workspace-fixtures.ts';

/**
 * Password reset over HTTP: the same 202 for every email, the emailed link sets a new
 * password once, the old password stops working and every session of the account ends.
 * Without SMTP_URL the link's token reaches the log only in the line that hands it to the
 * local user; the email is also read from the outbox.
 */

const oldPassword = 'correct horse battery staple';
const newPassword = 'a brand new long passphrase';

describe('password reset without SMTP_URL', () => {
  let service: TestService;
  const captured = capturedLogger();

  beforeAll(async () => {
    service = await startTestService({ RATE_LIMITS: 'on' }, { logger: captured.logger });
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('answers alike for every email, sets the password once and ends every session', async () => {
    const email = 'reset-owner@example.com';
    const { owner, teamId } = await signUp(service, email, oldPassword);
    const laptop = new Browser(service);
    expect(
      (await laptop.call('POST', '/workspace/v1/sessions', { email, password: oldPassword })).status,
    ).toBe(200);
    expect((await owner.call('GET', '/workspace/v1/me')).status).toBe(200);
    expect((await laptop.call('GET', '/workspace/v1/me')).status).toBe(200);

    const anonymous = new Browser(service);
    const unknown = await anonymous.call('POST', '/workspace/v1/password-resets', {
      email: 'nobody@example.com',
    });
    const known = await anonymous.call('POST', '/workspace/v1/password-resets', { email });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    const noMail = await service.context.pool.query('select 1 from mail_outbox where "to" = $1', [
      'nobody@example.com',
    ]);
    expect(noMail.rowCount).toBe(0);

    const token = linkToken(await lastEmailTo(service, email));
    // A local user without SMTP reads the email, link and all, through the operator API.
    const emails = await adminRequest(service, 'GET', `/teams/${teamId}/emails`);
    expect(emails.status).toBe(200);
    expect(emails.body.emails[0]).toMatchObject({ kind: 'account', to: email, status: 'queued' });
    expect(emails.body.emails[0].text).toContain(`/workspace/reset-password/${token}`);

    const tooShort = await anonymous.call('POST', `/workspace/v1/password-resets/${token}`, {
      password: 'short',
    });
    expect(tooShort.status).toBe(400);
    const reset = await anonymous.call('POST', `/workspace/v1/password-resets/${token}`, {
      password: newPassword,
    });
    expect(reset.status).toBe(200);
    const again = await anonymous.call('POST', `/workspace/v1/password-resets/${token}`, {
      password: 'yet another long passphrase',
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('reset_link_invalid');

    // Every session of the account ended: the old cookies are refused.
    for (const browser of [owner, laptop]) {
      const me = await browser.call('GET', '/workspace/v1/me');
      expect(me.status).toBe(401);
    }

    const withOld = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password: oldPassword,
    });
    expect(withOld.status).toBe(401);
    expect(withOld.body.code).toBe('invalid_credentials');
    const withNew = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password: newPassword,
    });
    expect(withNew.status).toBe(200);

    // The token is in the log only in the deliberate link line (no SMTP_URL).
    const withToken = captured.lines.filter((line) => line.includes(token));
    expect(withToken).toHaveLength(1);
    expect(JSON.parse(withToken[0]!)).toMatchObject({
      level: 30,
      msg: 'password reset email queued (no SMTP_URL: nothing is sent; open this link to continue)',
      outbox: expect.stringContaining('/emails'),
    });
    const logged = captured.lines.join('');
    for (const secret of [oldPassword, newPassword]) expect(logged).not.toContain(secret);
  }, 60_000);
});

describe('password reset of a locked account', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ RATE_LIMITS: 'on' });
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('ends the lock: the new password signs in at once, the old one still fails', async () => {
    const email = 'locked-owner@example.com';
    await signUp(service, email, oldPassword);
    const stranger = new Browser(service);
    const codes: string[] = [];
    // Up to 30 tries: the 15-minute windows are aligned to the clock, so one may end midway.
    for (let attempt = 0; attempt < 30 && !codes.includes('sign_in_locked'); attempt += 1) {
      const wrong = await stranger.call('POST', '/workspace/v1/sessions', {
        email,
        password: `wrong passphrase number ${attempt}`,
      });
      codes.push(wrong.body.code);
      // The 30-second pace from the 5th failure: the test clock moves past it.
      await adminRequest(service, 'POST', '/clock/advance', { seconds: 31 });
    }
    expect(codes).toContain('sign_in_locked');
    const stillLocked = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password: oldPassword,
    });
    expect(stillLocked.status).toBe(429);

    expect((await stranger.call('POST', '/workspace/v1/password-resets', { email })).status).toBe(202);
    const token = linkToken(await lastEmailTo(service, email));
    const reset = await stranger.call('POST', `/workspace/v1/password-resets/${token}`, {
      password: newPassword,
    });
    expect(reset.status).toBe(200);

    const withNew = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password: newPassword,
    });
    expect(withNew.status).toBe(200);
    const withOld = await new Browser(service).call('POST', '/workspace/v1/sessions', {
      email,
      password: oldPassword,
    });
    expect(withOld.status).toBe(401);
  }, 60_000);
});

describe('password reset with SMTP_URL', () => {
  let service: TestService;
  const captured = capturedLogger();

  beforeAll(async () => {
    service = await startTestService(
      { RATE_LIMITS: 'on', SMTP_URL: 'smtp://127.0.0.1:9' },
      { logger: captured.logger },
    );
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('never logs the link token', async () => {
    const email = 'smtp-owner@example.com';
    await signUp(service, email, oldPassword);
    const anonymous = new Browser(service);
    expect((await anonymous.call('POST', '/workspace/v1/password-resets', { email })).status).toBe(202);
    const token = linkToken(await lastEmailTo(service, email));
    expect(
      (await anonymous.call('POST', `/workspace/v1/password-resets/${token}`, { password: newPassword }))
        .status,
    ).toBe(200);
    expect(captured.lines.some((line) => line.includes('/workspace/v1/password-resets'))).toBe(true);
    expect(captured.lines.filter((line) => line.includes(token))).toEqual([]);
  }, 60_000);
});
