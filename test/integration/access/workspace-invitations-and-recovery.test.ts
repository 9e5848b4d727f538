import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_AFTER } from '../../../services/access/workspace/sign-in-throttle.ts';
import { registerSecrets } from '../../helpers/run-log.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { addMember, Browser, lastEmailTo, linkToken, signUp } from '../workspace-fixtures.ts';

/**
 * Account security of the workspace over HTTP: pending invitations listed, resent and
 * revoked by owners and admins; turning two-factor on ends every other session and hands
 * out one-time recovery codes (stored hashed, each signs in once, even 20 at once; the
 * sign-in is in Activity); common passwords refused at sign-up, reset, invitation
 * acceptance and password change.
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

const password = 'correct horse battery staple';
/** On the list (with digits and a symbol added), and long enough for the length rule. */
const COMMON = ['Password123!', 'qwerty123456', 'iloveyou2026'];

/** Without SMTP_URL an emailed link is logged on purpose (README, "Logs"); with it, never. */
const registerLink = (...tokens: string[]) =>
  registerSecrets(...(service.context.settings.SMTP_URL ? tokens : []));

const mailsTo = async (to: string) =>
  (
    await service.context.pool.query<{ text: string }>(
      `select text from mail_outbox where "to" = $1 order by created_at, id`,
      [to],
    )
  ).rows.map((row) => row.text);

const invite = async (owner: Browser, email: string, role = 'member') => {
  const answer = await owner.call('POST', '/workspace/v1/invitations', { email, name: email, role });
  expect(answer.status).toBe(201);
  return answer.body.invitation.id as string;
};

const accept = (token: string, candidate = 'an invited long passphrase') =>
  new Browser(service).call('POST', `/workspace/v1/invitations/${token}/accept`, {
    name: 'Invited',
    password: candidate,
  });

const activity = async (owner: Browser) => {
  const answer = await owner.call('GET', '/workspace/v1/audit?limit=100');
  expect(answer.status).toBe(200);
  return answer.body.data as { type: string; data: Record<string, unknown> }[];
};

describe('pending invitations', () => {
  it('are listed, resent (the older link stops working) and revoked by owners and admins; members get 403; other teams 404', async () => {
    const { owner } = await signUp(service, 'inv-owner@example.com', password, 'Invites Inc');
    const { browser: admin } = await addMember(service, owner, 'inv-admin@example.com', 'admin');
    const { browser: member } = await addMember(service, owner, 'inv-member@example.com', 'member');

    const pendingId = await invite(owner, 'pending@example.com', 'admin');
    const firstLink = linkToken(await lastEmailTo(service, 'pending@example.com'));
    const revokedId = await invite(owner, 'revoked@example.com');
    const revokedLink = linkToken(await lastEmailTo(service, 'revoked@example.com'));
    registerLink(firstLink, revokedLink);

    for (const reader of [owner, admin]) {
      const listed = await reader.call('GET', '/workspace/v1/invitations');
      expect(listed.status).toBe(200);
      const rows = listed.body.data as Record<string, unknown>[];
      // Accepted invitations (the admin's and the member's) are not pending.
      expect(rows.map((row) => row.email).sort()).toEqual(['pending@example.com', 'revoked@example.com']);
      const pending = rows.find((row) => row.id === pendingId)!;
      expect(pending).toMatchObject({
        role: 'admin',
        sent_count: 1,
        expired: false,
        invited_by: { name: 'Olive Owner' },
      });
      expect(JSON.stringify(rows)).not.toContain(firstLink);
    }

    // A member may not list, resend or revoke.
    expect((await member.call('GET', '/workspace/v1/invitations')).status).toBe(403);
    expect((await member.call('POST', `/workspace/v1/invitations/${pendingId}/resend`)).status).toBe(403);
    expect((await member.call('DELETE', `/workspace/v1/invitations/${pendingId}`)).status).toBe(403);

    // Another team sees none of them, and cannot act on them.
    const { owner: stranger } = await signUp(service, 'inv-stranger@example.com', password, 'Other');
    expect((await stranger.call('GET', '/workspace/v1/invitations')).body.data).toEqual([]);
    const foreignResend = await stranger.call('POST', `/workspace/v1/invitations/${pendingId}/resend`);
    expect(foreignResend.status).toBe(404);
    expect(foreignResend.body.code).toBe('invitation_not_found');
    expect((await stranger.call('DELETE', `/workspace/v1/invitations/${pendingId}`)).status).toBe(404);

    // An admin resends: a new mail with a new link; the older link no longer accepts.
    service.clock.advance(60);
    const resent = await admin.call('POST', `/workspace/v1/invitations/${pendingId}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body.invitation).toMatchObject({ id: pendingId, sent_count: 2 });
    const mails = await mailsTo('pending@example.com');
    expect(mails).toHaveLength(2);
    const secondLink = linkToken(mails[1]!);
    registerLink(secondLink);
    expect(secondLink).not.toBe(firstLink);
    const withOld = await accept(firstLink);
    expect(withOld.status).toBe(400);
    expect(withOld.body.code).toBe('invitation_invalid');

    // The owner revokes the other one: its link no longer accepts, and it leaves the list.
    const revoked = await owner.call('DELETE', `/workspace/v1/invitations/${revokedId}`);
    expect(revoked.status).toBe(200);
    const withRevoked = await accept(revokedLink);
    expect(withRevoked.status).toBe(400);
    expect(withRevoked.body.code).toBe('invitation_invalid');
    expect((await owner.call('POST', `/workspace/v1/invitations/${revokedId}/resend`)).status).toBe(404);
    expect((await owner.call('DELETE', `/workspace/v1/invitations/${revokedId}`)).status).toBe(404);
    const after = await owner.call('GET', '/workspace/v1/invitations');
    expect((after.body.data as { id: string }[]).map((row) => row.id)).toEqual([pendingId]);

    // The new link accepts; then the invitation is no longer pending.
    const joined = await accept(secondLink);
    expect(joined.status).toBe(201);
    expect((await owner.call('GET', '/workspace/v1/invitations')).body.data).toEqual([]);
    expect((await owner.call('POST', `/workspace/v1/invitations/${pendingId}/resend`)).status).toBe(404);

    const types = (await activity(owner)).map((entry) => entry.type);
    expect(types).toEqual(expect.arrayContaining(['invitation_resent', 'invitation_revoked']));
  });
});

/** What the member's authenticator app shows now (service clock). */
const codeNow = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: service.clock.now().getTime(),
  });

async function turnOnTwoFactor(browser: Browser) {
  const started = await browser.call('POST', '/workspace/v1/me/totp');
  expect(started.status).toBe(200);
  const secret = started.body.secret as string;
  registerSecrets(secret);
  const confirmed = await browser.call('POST', '/workspace/v1/me/totp/confirm', { code: codeNow(secret) });
  expect(confirmed.status).toBe(200);
  return { confirmed, secret, codes: confirmed.body.recovery_codes as string[] };
}

const signIn = (email: string, body: Record<string, string>) =>
  new Browser(service).call('POST', '/workspace/v1/sessions', { email, password, ...body });

describe('two-factor sign-in', () => {
  it('ends every other session of the member when turned on; the current one stays', async () => {
    const email = 'tf-sessions@example.com';
    const { owner } = await signUp(service, email, password, 'Sessions');
    const elsewhere = new Browser(service);
    expect((await elsewhere.call('POST', '/workspace/v1/sessions', { email, password })).status).toBe(200);
    expect((await elsewhere.call('GET', '/workspace/v1/me')).status).toBe(200);

    const { confirmed } = await turnOnTwoFactor(owner);
    expect(confirmed.headers.get('cache-control')).toBe('no-store');

    const ended = await elsewhere.call('GET', '/workspace/v1/me');
    expect(ended.status).toBe(401);
    expect(ended.body.code).toBe('session_required');
    expect((await owner.call('GET', '/workspace/v1/me')).status).toBe(200);
  });

  it('hands out 10 recovery codes, stored hashed, each signing in once (once of 9 at once), recorded in Activity; regenerated after a re-authentication', async () => {
    const email = 'tf-recovery@example.com';
    const { owner, memberId } = await signUp(service, email, password, 'Recovery');
    const { codes, secret } = await turnOnTwoFactor(owner);
    registerSecrets(...codes);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);

    // Stored hashed: the table holds no code as written (nor without its dashes).
    const stored = await service.context.pool.query<{ row: string }>(
      'select row_to_json(c)::text as row from member_recovery_codes c where member_id = $1',
      [memberId],
    );
    expect(stored.rows).toHaveLength(10);
    const table = stored.rows.map((row) => row.row).join('\n');
    for (const code of codes) {
      expect(table).not.toContain(code);
      expect(table).not.toContain(code.replaceAll('-', ''));
    }

    const left = async () => (await owner.call('GET', '/workspace/v1/me/recovery-codes')).body;
    expect(await left()).toEqual({ totp_enabled: true, remaining: 10 });

    // A code signs in in place of the two-factor code (typed in capitals, without dashes).
    const recovered = await signIn(email, { recovery_code: codes[0]!.toUpperCase().replaceAll('-', '') });
    expect(recovered.status).toBe(200);
    expect(recovered.body.member.id).toBe(memberId);
    // Once.
    const again = await signIn(email, { recovery_code: codes[0]! });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('recovery_code_invalid');
    expect(again.body.message).toMatch(/already used/);
    expect(await left()).toEqual({ totp_enabled: true, remaining: 9 });

    const entries = await activity(owner);
    const used = entries.find((entry) => entry.type === 'recovery_code_used');
    expect(used?.data).toEqual({ member_id: memberId, codes_left: 9 });

    // Sign-ins with one code at once: one session. The burst stays under the lock: LOCK_AFTER
    // attempts of one email in a window lock it, and whether the right attempt of a larger
    // burst ends before the lock is timing (bursts: test/integration/access/sign-in-bursts.test.ts).
    service.clock.advance(16 * 60);
    const burst = await Promise.all(
      Array.from({ length: LOCK_AFTER - 1 }, () => signIn(email, { recovery_code: codes[1]! })),
    );
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || status === 401 || status === 429)).toBe(true);
    expect(burst.filter((answer) => answer.setCookie !== null)).toHaveLength(1);
    expect(await left()).toEqual({ totp_enabled: true, remaining: 8 });
    const usedRows = await service.context.pool.query(
      'select 1 from member_recovery_codes where member_id = $1 and used_at is not null',
      [memberId],
    );
    expect(usedRows.rowCount).toBe(2);
    service.clock.advance(16 * 60);

    // New codes need a re-authentication; the older ones stop working.
    const unconfirmed = await owner.call('POST', '/workspace/v1/me/recovery-codes');
    expect(unconfirmed.status).toBe(403);
    expect(unconfirmed.body.code).toBe('reauthentication_required');
    expect((await owner.call('POST', '/workspace/v1/sessions/current/reauth', { password })).status).toBe(
      200,
    );
    const fresh = await owner.call('POST', '/workspace/v1/me/recovery-codes');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('cache-control')).toBe('no-store');
    const newCodes = fresh.body.recovery_codes as string[];
    registerSecrets(...newCodes);
    expect(newCodes).toHaveLength(10);
    expect(await left()).toEqual({ totp_enabled: true, remaining: 10 });
    const old = await signIn(email, { recovery_code: codes[2]! });
    expect(old.status).toBe(401);
    service.clock.advance(16 * 60);
    expect((await signIn(email, { recovery_code: newCodes[0]! })).status).toBe(200);
    // The two-factor code itself still works.
    service.clock.advance(30);
    expect((await signIn(email, { totp: codeNow(secret) })).status).toBe(200);
  });
});

describe('common passwords', () => {
  it('are refused in words at sign-up, reset, invitation acceptance and password change', async () => {
    const expectCommonRefused = (answer: { status: number; body: { code: string; message: string } }) => {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
      expect(answer.body.message).toMatch(/most common passwords/);
    };

    for (const candidate of COMMON) {
      expectCommonRefused(
        await new Browser(service).call('POST', '/workspace/v1/sign-up', {
          team_name: 'Common',
          name: 'Common',
          email: `common-${COMMON.indexOf(candidate)}@example.com`,
          password: candidate,
        }),
      );
    }

    const email = 'pw-owner@example.com';
    const { owner } = await signUp(service, email, password, 'Passwords');

    // Reset.
    expect((await new Browser(service).call('POST', '/workspace/v1/password-resets', { email })).status).toBe(
      202,
    );
    const resetToken = linkToken(await lastEmailTo(service, email));
    registerLink(resetToken);
    expectCommonRefused(
      await new Browser(service).call('POST', `/workspace/v1/password-resets/${resetToken}`, {
        password: COMMON[0],
      }),
    );

    // Invitation acceptance.
    await invite(owner, 'pw-invited@example.com');
    const inviteToken = linkToken(await lastEmailTo(service, 'pw-invited@example.com'));
    registerLink(inviteToken);
    expectCommonRefused(await accept(inviteToken, COMMON[1]));
    expect((await accept(inviteToken, 'a sound invited passphrase')).status).toBe(201);

    // Password change (after a re-authentication); a good one ends the other sessions.
    const other = new Browser(service);
    expect((await other.call('POST', '/workspace/v1/sessions', { email, password })).status).toBe(200);
    expect(
      (await owner.call('POST', '/workspace/v1/me/password', { password: 'a brand new passphrase' })).status,
    ).toBe(403);
    expect((await owner.call('POST', '/workspace/v1/sessions/current/reauth', { password })).status).toBe(
      200,
    );
    expectCommonRefused(await owner.call('POST', '/workspace/v1/me/password', { password: COMMON[2] }));
    const changed = await owner.call('POST', '/workspace/v1/me/password', {
      password: 'a brand new passphrase',
    });
    expect(changed.status).toBe(200);
    expect((await other.call('GET', '/workspace/v1/me')).status).toBe(401);
    expect((await owner.call('GET', '/workspace/v1/me')).status).toBe(200);
    registerSecrets('a brand new passphrase');
    expect(
      (
        await new Browser(service).call('POST', '/workspace/v1/sessions', {
          email,
          password: 'a brand new passphrase',
        })
      ).status,
    ).toBe(200);
  });
});
