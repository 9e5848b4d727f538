import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecrets } from '../../helpers/run-log.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { startSmtpServer, type SmtpTestServer } from '../../helpers/smtp.ts';
import { apiRequest, createTemplate } from '../../helpers/tenant.ts';
import { drain } from '../automation-fixtures.ts';
import { ABUSE_LIMITS } from '../../../services/access/workspace/abuse-limits.ts';
import { Browser, followVerificationLink, lastEmailTo, linkToken, signUp } from '../workspace-fixtures.ts';

/**
 * The self-serve product's abuse limits over real HTTP, PostgreSQL and SMTP
 * (docs/decisions/0006-self-serve-abuse-limits.md): a signed-up team sends nothing until
 * its owner follows the emailed link; sign-ups, resets and invitations are limited per IP,
 * team and address under a burst; sign-up, invitation and reset answer alike (and as fast)
 * whether or not the address has an account; an older reset link stops working; mail
 * subjects never carry the name an attacker typed.
 */

let service: TestService;
let smtp: SmtpTestServer;
const password = 'a long self-serve passphrase';
const HOSTILE_TEAM = 'URGENT: your bank account is locked, call +1 555 0100';

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startTestService({ RATE_LIMITS: 'on', SMTP_URL: smtp.url });
  registerSecrets(password);
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await smtp?.close();
});

/** A new window of every hourly and daily limit: the limits count on the service clock. */
const nextDay = () => service.clock.advance(24 * 60 * 60);

/** After a day the session has ended: the same browser signs in again. */
async function again(browser: Browser, email: string) {
  const answer = await browser.call('POST', '/workspace/v1/sessions', { email, password });
  expect(answer.status).toBe(200);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; answer: T }> {
  const started = performance.now();
  const answer = await work();
  return { ms: performance.now() - started, answer };
}

const subjectsTo = async (to: string) =>
  (
    await service.context.pool.query<{ subject: string; from_name: string }>(
      'select subject, from_name from mail_outbox where "to" = $1 order by seq',
      [to],
    )
  ).rows;

async function newClientOnboarding(owner: Browser, teamId: string, n: number) {
  const template = await createTemplate(service, teamId, { name: `Intake ${n}` });
  const client = await owner.call('POST', '/workspace/v1/clients', {
    name: `Client ${n}`,
    email: `self-serve-client-${n}@example.com`,
  });
  expect(client.status, JSON.stringify(client.body)).toBe(201);
  const created = await owner.call('POST', '/workspace/v1/onboardings', {
    client_id: client.body.client.id,
    template_id: template.id,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.onboarding.id as string;
}

describe('email verification of a self-serve team', () => {
  it('sends no onboarding, invitation or public-API send until the owner follows the emailed link', async () => {
    nextDay();
    const email = 'verify-owner@example.com';
    const { owner, teamId } = await signUp(service, email, password, HOSTILE_TEAM, { verify: false });
    expect((await owner.call('GET', '/workspace/v1/email-verification')).body).toEqual({
      team_verified: false,
      pending_for_me: true,
    });
    const firstLink = linkToken(await lastEmailTo(service, email));
    registerSecrets(firstLink);

    const onboardingId = await newClientOnboarding(owner, teamId, 1);
    const refused = await owner.call('POST', `/workspace/v1/onboardings/${onboardingId}/send`, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'email_unverified',
      error: expect.stringMatching(/^Verify your email/),
    });
    const invite = await owner.call('POST', '/workspace/v1/invitations', {
      email: 'early-invitee@example.com',
      name: 'Early',
      role: 'member',
    });
    expect(invite.status).toBe(403);
    expect(invite.body.code).toBe('email_unverified');
    expect(await subjectsTo('early-invitee@example.com')).toEqual([]);

    // The public API keeps its contract: the spec's check 5, 403 sending_paused, same text.
    expect((await owner.call('POST', '/workspace/v1/sessions/current/reauth', { password })).status).toBe(
      200,
    );
    const key = await owner.call(
      'POST',
      '/workspace/v1/api-keys',
      { name: 'CRM', scopes: ['onboardings:write'] },
      { 'idempotency-key': 'self-serve-key' },
    );
    registerSecrets(key.body.secret);
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const apiSend = await apiRequest(service, key.body.secret, 'POST', `/onboardings/${onboardingId}/send`, {
      body: {},
    });
    expect(apiSend.status).toBe(403);
    expect(apiSend.body).toMatchObject({
      code: 'sending_paused',
      error: 'Sending is paused for this workspace',
    });

    // A resend: a new link, the older one stops working.
    expect((await owner.call('POST', '/workspace/v1/email-verification/resend')).status).toBe(202);
    const anonymous = new Browser(service);
    const old = await anonymous.call('POST', `/workspace/v1/email-verification/${firstLink}`);
    expect(old.status).toBe(400);
    expect(old.body.code).toBe('verification_link_invalid');
    const newest = linkToken(await lastEmailTo(service, email));
    registerSecrets(newest);
    expect((await anonymous.call('POST', `/workspace/v1/email-verification/${newest}`)).status).toBe(200);
    // Once only.
    expect((await anonymous.call('POST', `/workspace/v1/email-verification/${newest}`)).status).toBe(400);
    expect((await owner.call('GET', '/workspace/v1/email-verification')).body).toEqual({
      team_verified: true,
      pending_for_me: false,
    });
    expect((await owner.call('POST', '/workspace/v1/email-verification/resend')).status).toBe(409);

    const sent = await owner.call('POST', `/workspace/v1/onboardings/${onboardingId}/send`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const invited = await owner.call('POST', '/workspace/v1/invitations', {
      email: 'early-invitee@example.com',
      name: 'Early',
      role: 'member',
    });
    expect(invited.status).toBe(201);
    const second = await newClientOnboarding(owner, teamId, 2);
    const apiSent = await apiRequest(service, key.body.secret, 'POST', `/onboardings/${second}/send`, {
      body: {},
    });
    expect(apiSent.status, JSON.stringify(apiSent.body)).toBe(200);
    // The invitation's subject and sender are the service's fixed words; the team's name is
    // only quoted in the body.
    await drain(service);
    const delivered = (await smtp.waitFor(1, 20_000)) && smtp.messages;
    const mail = delivered.find((message) => message.envelope.to.includes('early-invitee@example.com'));
    expect(mail?.subject).toBe('You are invited to join a team on Client onboarding');
    expect(mail?.header('from')).toContain('Client onboarding');
    expect(mail?.header('from')).not.toContain('URGENT');
    expect(mail?.text).toContain(`“${HOSTILE_TEAM}”`);
  }, 60_000);

  it('records the verification as account events', async () => {
    nextDay();
    const { memberId } = await signUp(service, 'events-owner@example.com', password, 'Events');
    const types = (await service.context.eventStore.readStream(`member_account-${memberId}`)).map(
      (event) => event.type,
    );
    expect(types).toEqual(
      expect.arrayContaining(['account.opened', 'account.email_verification_sent', 'account.email_verified']),
    );
  }, 60_000);

  it('a link stops working after 24 hours', async () => {
    nextDay();
    const email = 'late-owner@example.com';
    await signUp(service, email, password, 'Late', { verify: false });
    const token = linkToken(await lastEmailTo(service, email));
    registerSecrets(token);
    service.clock.advance(24 * 60 * 60 + 1);
    const late = await new Browser(service).call('POST', `/workspace/v1/email-verification/${token}`);
    expect(late.status).toBe(400);
  }, 60_000);

  it('the fact the automation actions read is pending until the link and verified after (automation-unverified-team.test.ts runs the mail)', async () => {
    nextDay();
    const email = 'automation-owner@example.com';
    const { owner, teamId, memberId } = await signUp(service, email, password, 'Automations', {
      verify: false,
    });
    const { rows } = await service.context.pool.query<{ verified_at: Date | null }>(
      'select verified_at from team_email_verifications where team_id = $1',
      [teamId],
    );
    expect(rows).toEqual([{ verified_at: null }]);
    // The automation actions read the same fact as the sends.
    const { teamEmailVerified } = await import('../../../services/access/workspace/email-verification.ts');
    expect(await teamEmailVerified(service.context.pool, teamId)).toBe(false);
    await followVerificationLink(service, email);
    expect(await teamEmailVerified(service.context.pool, teamId)).toBe(true);
    expect(owner).toBeDefined();
    expect(memberId).toBeDefined();
  }, 60_000);
});

describe('limits under a burst', () => {
  it('60 concurrent sign-ups from one IP: at most the limit pass, the rest 429 with Retry-After', async () => {
    nextDay();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        new Browser(service).call('POST', '/workspace/v1/sign-up', {
          team_name: `Burst ${i}`,
          name: 'Burst',
          email: `burst-${i}@example.com`,
          password,
        }),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 202);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(accepted).toHaveLength(ABUSE_LIMITS.sign_up_ip.limit);
    expect(refused).toHaveLength(60 - ABUSE_LIMITS.sign_up_ip.limit);
    expect(refused[0]!.body).toMatchObject({
      code: 'rate_limited',
      error: expect.stringMatching(/^Too many sign-ups/),
    });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    const teams = await service.context.pool.query(
      `select 1 from member_credentials where email like 'burst-%'`,
    );
    expect(teams.rowCount).toBe(ABUSE_LIMITS.sign_up_ip.limit);
  }, 60_000);

  it('resets: 30 at once for one address queue at most 3 mails; an unknown address is limited alike', async () => {
    nextDay();
    const email = 'reset-burst@example.com';
    await signUp(service, email, password, 'Resets');
    const before = (await subjectsTo(email)).length;
    for (const address of [email, 'nobody-reset@example.com']) {
      nextDay();
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          new Browser(service).call('POST', '/workspace/v1/password-resets', { email: address }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 202)).toHaveLength(ABUSE_LIMITS.reset_address.limit);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30 - ABUSE_LIMITS.reset_address.limit);
    }
    expect((await subjectsTo(email)).length - before).toBe(ABUSE_LIMITS.reset_address.limit);
    // Only the newest of the three links works (each request ended the older ones).
    const links = await service.context.pool.query(
      `select 1 from workspace_tokens t join member_credentials c on c.member_id = t.member_id
       where c.email = $1 and t.purpose = 'password_reset'`,
      [email],
    );
    expect(links.rowCount).toBe(1);
  }, 60_000);

  it('resets from one IP for many addresses stop at the per-IP limit', async () => {
    nextDay();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        new Browser(service).call('POST', '/workspace/v1/password-resets', {
          email: `ip-reset-${i}@example.com`,
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(ABUSE_LIMITS.reset_ip.limit);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(30 - ABUSE_LIMITS.reset_ip.limit);
  }, 60_000);

  it('invitations: per team under a burst, and per address', async () => {
    nextDay();
    const { owner } = await signUp(service, 'inviter@example.com', password, HOSTILE_TEAM);
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        owner.call('POST', '/workspace/v1/invitations', {
          email: `invitee-${i}@example.com`,
          name: `Invitee ${i}`,
          role: 'member',
        }),
      ),
    );
    const statuses = JSON.stringify(burst.map((answer) => [answer.status, answer.body?.code]));
    const invited = burst.filter((answer) => answer.status === 201);
    expect(invited.length, statuses).toBeLessThanOrEqual(ABUSE_LIMITS.invitation_team.limit);
    expect(invited.length, statuses).toBeGreaterThan(0);
    expect(
      burst.filter((answer) => answer.status === 429),
      statuses,
    ).toHaveLength(30 - ABUSE_LIMITS.invitation_team.limit);
    const mails = await service.context.pool.query(
      `select subject from mail_outbox where "to" like 'invitee-%'`,
    );
    expect(mails.rowCount).toBe(invited.length);

    nextDay();
    await again(owner, 'inviter@example.com');
    const same = await Promise.all(
      Array.from({ length: 6 }, () =>
        owner.call('POST', '/workspace/v1/invitations', {
          email: 'popular@example.com',
          name: 'Popular',
          role: 'member',
        }),
      ),
    );
    expect(same.filter((answer) => answer.status === 201)).toHaveLength(
      ABUSE_LIMITS.invitation_address.limit,
    );
    expect(same.filter((answer) => answer.status === 429)).toHaveLength(
      6 - ABUSE_LIMITS.invitation_address.limit,
    );
  }, 60_000);
});

const SIGN_UP_PAIRS = 8;

describe('no enumeration', () => {
  it('sign-up answers alike, and as fast, for an existing and a new address; the owner is told', async () => {
    nextDay();
    const existing = 'taken@example.com';
    await signUp(service, existing, password, 'Taken');
    const times = { existing: [] as number[], fresh: [] as number[] };
    // Each sign-up answers no sooner than SIGN_UP_ANSWER_MS (1 s): 8 pairs keep the run short.
    for (let i = 0; i < SIGN_UP_PAIRS; i++) {
      nextDay();
      const body = (email: string) => ({
        team_name: 'Copy',
        name: 'Someone',
        email,
        password: `${password} ${i}`,
      });
      const a = await timed(() => new Browser(service).call('POST', '/workspace/v1/sign-up', body(existing)));
      const b = await timed(() =>
        new Browser(service).call('POST', '/workspace/v1/sign-up', body(`fresh-${i}@example.com`)),
      );
      expect(a.answer.status).toBe(202);
      expect(b.answer.status).toBe(a.answer.status);
      expect(b.answer.body).toEqual(a.answer.body);
      expect(a.answer.setCookie).toBeNull();
      expect(b.answer.setCookie).toBeNull();
      times.existing.push(a.ms);
      times.fresh.push(b.ms);
    }
    const [slow, fast] = [median(times.existing), median(times.fresh)].sort((x, y) => y - x);
    expect(slow! / fast!, JSON.stringify(times)).toBeLessThan(1.5);
    const accounts = await service.context.pool.query('select 1 from member_credentials where email = $1', [
      existing,
    ]);
    expect(accounts.rowCount).toBe(1);
    const told = (await subjectsTo(existing)).filter((mail) => mail.subject.startsWith('Someone tried'));
    expect(told).toHaveLength(SIGN_UP_PAIRS);
  }, 120_000);

  it('a reset answers alike, and as fast, for an existing and an unknown address', async () => {
    nextDay();
    const existing = 'reset-timing@example.com';
    await signUp(service, existing, password, 'Reset timing');
    const times = { existing: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 20; i++) {
      nextDay();
      const a = await timed(() =>
        new Browser(service).call('POST', '/workspace/v1/password-resets', { email: existing }),
      );
      const b = await timed(() =>
        new Browser(service).call('POST', '/workspace/v1/password-resets', {
          email: `unknown-${i}@example.com`,
        }),
      );
      expect(a.answer.status).toBe(202);
      expect(b.answer.status).toBe(202);
      expect(b.answer.body).toEqual(a.answer.body);
      times.existing.push(a.ms);
      times.unknown.push(b.ms);
    }
    const [slow, fast] = [median(times.existing), median(times.unknown)].sort((x, y) => y - x);
    expect(slow! / fast!, JSON.stringify(times)).toBeLessThan(1.5);
  }, 120_000);

  it('an invitation answers alike, and as fast, for an address with an account elsewhere and a new one', async () => {
    nextDay();
    const elsewhere = 'elsewhere@example.com';
    await signUp(service, elsewhere, password, 'Elsewhere');
    nextDay();
    const { owner } = await signUp(service, 'invite-timing@example.com', password, 'Invite timing');
    const times = { elsewhere: [] as number[], fresh: [] as number[] };
    const shape = (body: { invitation: Record<string, unknown> }) => ({
      ...body.invitation,
      id: 'id',
      email: 'email',
    });
    for (let i = 0; i < 20; i++) {
      nextDay();
      await again(owner, 'invite-timing@example.com');
      const invite = (email: string) => () =>
        owner.call('POST', '/workspace/v1/invitations', { email, name: 'Person', role: 'member' });
      const a = await timed(invite(elsewhere));
      const b = await timed(invite(`new-invitee-${i}@example.com`));
      expect(a.answer.status).toBe(201);
      expect(b.answer.status).toBe(201);
      expect(shape(b.answer.body)).toEqual(shape(a.answer.body));
      times.elsewhere.push(a.ms);
      times.fresh.push(b.ms);
    }
    const [slow, fast] = [median(times.elsewhere), median(times.fresh)].sort((x, y) => y - x);
    expect(slow! - fast!, JSON.stringify(times)).toBeLessThan(Math.max(10, fast!));
  }, 120_000);
});

describe('reset links', () => {
  it('an older link stops working after a newer request, and every link after a completed reset', async () => {
    nextDay();
    const email = 'links-owner@example.com';
    await signUp(service, email, password, 'Links');
    const anonymous = new Browser(service);
    const ask = async () => {
      expect((await anonymous.call('POST', '/workspace/v1/password-resets', { email })).status).toBe(202);
      const token = linkToken(await lastEmailTo(service, email));
      registerSecrets(token);
      return token;
    };
    const first = await ask();
    const second = await ask();
    const older = await anonymous.call('POST', `/workspace/v1/password-resets/${first}`, {
      password: 'an older link passphrase',
    });
    expect(older.status).toBe(400);
    expect(older.body.code).toBe('reset_link_invalid');
    // Two outstanding links (asked at once): the completed reset ends the other.
    const [third, fourth] = [second, await ask()];
    expect(third).not.toBe(fourth);
    const done = await anonymous.call('POST', `/workspace/v1/password-resets/${fourth}`, {
      password: 'the newest link passphrase',
    });
    expect(done.status).toBe(200);
    registerSecrets('the newest link passphrase');
    for (const token of [first, second, fourth]) {
      const again = await anonymous.call('POST', `/workspace/v1/password-resets/${token}`, {
        password: 'yet another passphrase',
      });
      expect(again.status).toBe(400);
    }
    const outstanding = await service.context.pool.query(
      `select 1 from workspace_tokens t join member_credentials c on c.member_id = t.member_id
       where c.email = $1 and t.purpose = 'password_reset' and t.used_at is null`,
      [email],
    );
    expect(outstanding.rowCount).toBe(0);
  }, 60_000);
});

describe('mail subjects and senders', () => {
  it('never carry the team name typed at sign-up', async () => {
    const { rows } = await service.context.pool.query<{ kind: string; subject: string; from_name: string }>(
      `select kind, subject, from_name from mail_outbox where kind in ('account', 'invite', 'notification')`,
    );
    expect(rows.length).toBeGreaterThan(20);
    const kinds = new Set(rows.map((row) => row.subject));
    expect(kinds).toEqual(
      new Set([
        'Verify your email address',
        'Reset your password',
        'You are invited to join a team on Client onboarding',
        'Someone tried to sign up with your email address',
        ...rows.filter((row) => row.kind === 'invite').map((row) => row.subject),
      ]),
    );
    for (const row of rows.filter((mail) => mail.kind === 'account')) {
      expect(row.from_name).toBe('Client onboarding');
      expect(row.subject).not.toContain('URGENT');
    }
  }, 60_000);
});
