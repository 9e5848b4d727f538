import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../shared/logging/logger.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { alignClockToWindow } from '../../helpers/clock-windows.ts';
import { FAILURE_WINDOW_SECONDS } from '../../../services/access/workspace/sign-in-throttle.ts';

/**
 * The workspace end to end over HTTP: sign up, sign in, invite a member who accepts by
 * the emailed link, re-authenticate, create a key and use it, rotate, revoke, members
 * kept from Integrations, a lockout, a refused CSRF request, and a log free of secrets.
 */

let service: TestService;
const lines: string[] = [];

beforeAll(async () => {
  const buffer = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  service = await startTestService({ RATE_LIMITS: 'on' }, { logger: createLogger('trace', buffer) });
});

afterAll(async () => {
  await service?.stop();
});

/** A browser: keeps the session cookie and the CSRF token. */
class Browser {
  cookie = '';
  csrf = '';
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.csrf && method !== 'GET' ? { 'x-csrf-token': this.csrf } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    const json = text ? JSON.parse(text) : undefined;
    if (json?.csrf_token) this.csrf = json.csrf_token;
    return { status: response.status, body: json, headers: response.headers, setCookie };
  }
}

async function emailTo(to: string): Promise<string> {
  const { rows } = await service.context.pool.query<{ text: string; kind: string }>(
    `select text, kind from mail_outbox where "to" = $1 order by created_at desc, seq desc limit 1`,
    [to],
  );
  expect(rows[0]?.kind).toBe('account');
  return rows[0]!.text;
}

const linkToken = (text: string) => /\/([0-9a-f]{64})\b/.exec(text)![1]!;

describe('the workspace', () => {
  it('runs the acceptance path', async () => {
    const ownerPassword = 'correct horse battery staple';
    const memberPassword = 'another long passphrase';
    const owner = new Browser();

    // Password rules.
    const short = await owner.call('POST', '/workspace/v1/sign-up', {
      team_name: 'Acme',
      name: 'Olive Owner',
      email: 'olive@example.com',
      password: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('The password must have at least 12 characters.');
    const sameAsEmail = await owner.call('POST', '/workspace/v1/sign-up', {
      team_name: 'Acme',
      name: 'Olive Owner',
      email: 'olive-long-address@example.com',
      password: 'olive-long-address@example.com',
    });
    expect(sameAsEmail.body.message).toBe('The password must not be your email address.');

    // Sign up.
    const signUp = await owner.call('POST', '/workspace/v1/sign-up', {
      team_name: 'Acme',
      name: 'Olive Owner',
      email: 'Olive@Example.com',
      password: ownerPassword,
    });
    // "Check your email": no session yet; the emailed link verifies the address, then sign in.
    expect(signUp.status).toBe(202);
    expect(signUp.body).toEqual({ accepted: true, next: 'verify_email' });
    expect(signUp.setCookie).toBeNull();
    const verifyToken = linkToken(await emailTo('olive@example.com'));
    expect((await new Browser().call('POST', `/workspace/v1/email-verification/${verifyToken}`)).status).toBe(
      200,
    );
    const firstSignIn = await owner.call('POST', '/workspace/v1/sessions', {
      email: 'olive@example.com',
      password: ownerPassword,
    });
    expect(firstSignIn.status).toBe(200);
    expect(firstSignIn.body.member.role).toBe('owner');
    expect(firstSignIn.body.team.plan).toBe('pro_trial');
    expect(firstSignIn.setCookie).toMatch(/HttpOnly/i);
    expect(firstSignIn.setCookie).toMatch(/SameSite=Strict/i);
    expect(firstSignIn.setCookie).toMatch(/Path=\//);
    const teamId = firstSignIn.body.team.id as string;
    const hash = await service.context.pool.query<{ password_hash: string }>(
      'select password_hash from member_credentials where email = $1',
      ['olive@example.com'],
    );
    expect(hash.rows[0]!.password_hash.startsWith('$argon2id$')).toBe(true);

    // Sign out, sign in again.
    expect((await owner.call('DELETE', '/workspace/v1/sessions/current')).status).toBe(200);
    expect((await owner.call('GET', '/workspace/v1/me')).status).toBe(401);
    owner.csrf = '';
    const signIn = await owner.call('POST', '/workspace/v1/sessions', {
      email: 'olive@example.com',
      password: ownerPassword,
    });
    expect(signIn.status).toBe(200);
    const me = await owner.call('GET', '/workspace/v1/me');
    expect(me.body).toMatchObject({
      role: 'owner',
      team: { id: teamId },
      csrf_token: signIn.body.csrf_token,
    });

    // A POST without the CSRF token is refused and changes nothing.
    const noCsrf = await fetch(`${service.url}/workspace/v1/invitations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookie },
      body: JSON.stringify({ email: 'mallory@example.com', name: 'Mallory', role: 'owner' }),
    });
    expect(noCsrf.status).toBe(403);
    expect(((await noCsrf.json()) as { code: string }).code).toBe('csrf_token_invalid');
    const mallory = await service.context.pool.query('select 1 from mail_outbox where "to" = $1', [
      'mallory@example.com',
    ]);
    expect(mallory.rowCount).toBe(0);

    // Invite a member who accepts through the emailed link.
    const invite = await owner.call('POST', '/workspace/v1/invitations', {
      email: 'mo@example.com',
      name: 'Mo Member',
      role: 'member',
    });
    expect(invite.status).toBe(201);
    const inviteToken = linkToken(await emailTo('mo@example.com'));
    const member = new Browser();
    const accepted = await member.call('POST', `/workspace/v1/invitations/${inviteToken}/accept`, {
      name: 'Mo Member',
      password: memberPassword,
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.role).toBe('member');
    const again = await new Browser().call('POST', `/workspace/v1/invitations/${inviteToken}/accept`, {
      name: 'Mo',
      password: memberPassword,
    });
    expect(again.body.code).toBe('invitation_invalid');
    const members = await owner.call('GET', '/workspace/v1/members');
    expect(members.body.data.map((m: { email: string }) => m.email).sort()).toEqual([
      'mo@example.com',
      'olive@example.com',
    ]);

    // A member gets 403 on every Integrations route.
    const someId = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', '/workspace/v1/api-keys'],
      ['POST', '/workspace/v1/api-keys'],
      ['POST', `/workspace/v1/api-keys/${someId}/rotate`],
      ['DELETE', `/workspace/v1/api-keys/${someId}`],
      ['GET', '/workspace/v1/audit'],
    ] as const) {
      const refused = await member.call(
        method,
        path,
        method === 'POST' ? { scopes: ['clients:read'] } : undefined,
        {
          'idempotency-key': 'k1',
        },
      );
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }

    // Creating a key needs a re-authentication.
    const keyBody = { name: 'CRM sync', scopes: ['clients:read', 'events:read'] };
    const unconfirmed = await owner.call('POST', '/workspace/v1/api-keys', keyBody, {
      'idempotency-key': 'create-1',
    });
    expect(unconfirmed.body.code).toBe('reauthentication_required');
    expect(
      (await owner.call('POST', '/workspace/v1/sessions/current/reauth', { password: ownerPassword })).status,
    ).toBe(200);
    const templatesWrite = await owner.call(
      'POST',
      '/workspace/v1/api-keys',
      { scopes: ['templates:write'] },
      { 'idempotency-key': 'tw' },
    );
    expect(templatesWrite.status).toBe(400);
    const created = await owner.call('POST', '/workspace/v1/api-keys', keyBody, {
      'idempotency-key': 'create-1',
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('created');
    const secret = created.body.secret as string;
    const check = await owner.call('POST', '/workspace/v1/api-keys', keyBody, {
      'idempotency-key': 'create-1',
    });
    expect(check.body).toMatchObject({ status: 'already_created', api_key: { id: created.body.api_key.id } });
    expect(check.body.secret).toBeUndefined();

    const callMe = (key: string) =>
      fetch(`${service.url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    const meWithKey = await callMe(secret);
    expect(meWithKey.status).toBe(200);
    expect(((await meWithKey.json()) as { team: { id: string } }).team.id).toBe(teamId);

    // Rotate, then revoke the old key: it fails from its next request.
    const rotated = await owner.call(
      'POST',
      `/workspace/v1/api-keys/${created.body.api_key.id}/rotate`,
      undefined,
      {
        'idempotency-key': 'rotate-1',
      },
    );
    expect(rotated.status).toBe(201);
    expect(rotated.body.api_key).toMatchObject({ name: 'CRM sync', scopes: ['clients:read', 'events:read'] });
    expect((await callMe(secret)).status).toBe(200);
    expect((await callMe(rotated.body.secret)).status).toBe(200);
    expect((await owner.call('DELETE', `/workspace/v1/api-keys/${created.body.api_key.id}`)).status).toBe(
      200,
    );
    const old = await callMe(secret);
    expect(old.status).toBe(401);
    expect(((await old.json()) as { code: string }).code).toBe('api_key_inactive');
    expect((await callMe(rotated.body.secret)).status).toBe(200);

    // Five active keys at most.
    for (let index = 0; index < 4; index += 1) {
      const more = await owner.call('POST', '/workspace/v1/api-keys', keyBody, {
        'idempotency-key': `more-${index}`,
      });
      expect(more.status).toBe(201);
    }
    const sixth = await owner.call('POST', '/workspace/v1/api-keys', keyBody, { 'idempotency-key': 'sixth' });
    expect(sixth.status).toBe(409);
    expect(sixth.body.code).toBe('key_limit_reached');

    // The last owner can neither leave nor be demoted.
    const ownerId = firstSignIn.body.member.id as string;
    expect((await owner.call('DELETE', `/workspace/v1/members/${ownerId}`)).body.code).toBe('last_owner');
    expect((await owner.call('PATCH', `/workspace/v1/members/${ownerId}`, { role: 'admin' })).body.code).toBe(
      'last_owner',
    );

    // Ten wrong passwords lock the account with a human message, even for the right one.
    alignClockToWindow(service.clock, FAILURE_WINDOW_SECONDS);
    const stranger = new Browser();
    let last = { status: 0, body: {} as { code?: string; message?: string }, headers: new Headers() };
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      last = await stranger.call('POST', '/workspace/v1/sessions', {
        email: 'mo@example.com',
        password: `wrong ${attempt} password`,
      });
      if (attempt < 10) expect(last.status, `attempt ${attempt}`).toBe(401);
      if (attempt >= 5) {
        const slowed = await stranger.call('POST', '/workspace/v1/sessions', {
          email: 'mo@example.com',
          password: memberPassword,
        });
        if (attempt < 10) {
          expect(slowed.status).toBe(429);
          expect(slowed.body.code).toBe('sign_in_slowed_down');
          expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
        }
        service.clock.advance(30);
      }
    }
    expect(last.status).toBe(429);
    expect(last.body.code).toBe('sign_in_locked');
    expect(last.body.message).toMatch(/locked\. Try again in 1[45] minutes/);
    const locked = await stranger.call('POST', '/workspace/v1/sessions', {
      email: 'mo@example.com',
      password: memberPassword,
    });
    expect(locked.body.code).toBe('sign_in_locked');

    // Removing a member ends their sessions at once.
    const moId = accepted.body.member.id as string;
    expect((await member.call('GET', '/workspace/v1/me')).status).toBe(200);
    expect((await owner.call('DELETE', `/workspace/v1/members/${moId}`)).status).toBe(200);
    expect((await member.call('GET', '/workspace/v1/me')).status).toBe(401);

    // The audit view.
    const audit = await owner.call('GET', '/workspace/v1/audit?limit=100');
    const types = audit.body.data.map((entry: { type: string }) => entry.type);
    for (const type of [
      'signed_in',
      'sign_in_locked',
      'api_key_created',
      'api_key_rotated',
      'api_key_revoked',
      'member_added',
      'member_removed',
    ]) {
      expect(types, type).toContain(type);
    }
    expect(types[0]).toBe('member_removed');

    // No password, session id, CSRF token or link token in the log.
    const logged = lines.join('');
    const sessionId = owner.cookie.split('=')[1]!;
    for (const value of [ownerPassword, memberPassword, sessionId, owner.csrf, member.csrf, secret]) {
      expect(logged).not.toContain(value);
    }
    // Without SMTP_URL the invitation link is handed to the local user in one info line.
    expect(lines.filter((line) => line.includes(inviteToken))).toHaveLength(1);
    expect(logged).toContain(
      'invitation email queued (no SMTP_URL: nothing is sent; open this link to continue)',
    );
  }, 120_000);
});
