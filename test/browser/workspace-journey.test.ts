import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { apiRequest } from '../helpers/tenant.ts';
import {
  button,
  field,
  navigation,
  openSection,
  screens,
  shown,
  signIn,
  signedIn,
  signOut,
  signUp,
  TIMEOUT,
} from './workspace-page.ts';
import {
  emailedLink,
  expectWorkspaceLogFreeOf,
  inPage,
  lastAccountEmailTo,
  Secrets,
  startWorkspaceService,
  type WorkspaceService,
} from './workspace-service.ts';

/**
 * The team workspace in Chromium, from a fresh service: an owner signs up at /, signs out
 * and in again, invites a member who accepts by the emailed link (a second browser), creates
 * an API key in Integrations after typing their password again, reads its secret once and
 * uses it, rotates it (both secrets work), revokes the old one (401 api_key_inactive at its
 * next request). The member sees no Integrations and the server refuses them a key; a
 * request of the page without its CSRF token changes nothing. Every screen passes axe-core
 * at 390x844 and 1280x900; the log holds no password, cookie, CSRF token or key secret.
 */

const OWNER = {
  team: 'Northwind Advisors',
  name: 'Olive Owner',
  email: 'olive.owner@example.com',
  password: 'a long owner passphrase 7291',
};
const MEMBER = {
  name: 'Milo Member',
  email: 'milo.member@example.com',
  password: 'a member passphrase 4418',
};

let service: WorkspaceService;
let browser: Browser;
const secrets = new Secrets();
secrets.add('owner password', OWNER.password);
secrets.add('member password', MEMBER.password);

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
});

afterAll(async () => {
  try {
    if (service) {
      expect(new Set(secrets.values.values())).toEqual(
        new Set(['owner password', 'member password', 'session cookie', 'CSRF token', 'API key secret']),
      );
      expectWorkspaceLogFreeOf(service, secrets);
    }
  } finally {
    await browser?.close();
    await service?.stop();
  }
});

/** The API key secrets (cos_...) the page shows, in its text and in its fields. */
async function shownSecrets(page: Page): Promise<string[]> {
  const found = await page.evaluate(`(() => {
    const texts = [document.body.innerText];
    for (const input of document.querySelectorAll('input, textarea')) texts.push(input.value);
    return texts.join('\\n');
  })()`);
  return [...new Set(String(found).match(/cos_[A-Za-z0-9_-]{20,}/g) ?? [])];
}

/**
 * After Create key or Rotate: types the password when the page asks for it again, then
 * reads the one new secret the page shows.
 */
async function secretAfterReauth(
  page: Page,
  password: string,
  not: string[],
  atScreen: (screen: string) => Promise<void>,
): Promise<{ secret: string; askedPassword: boolean }> {
  const passwordField = page.getByRole('dialog').getByLabel('Password', { exact: true });
  let askedPassword = false;
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    const secret = (await shownSecrets(page)).find((candidate) => !not.includes(candidate));
    if (secret) {
      secrets.add('API key secret', secret);
      return { secret, askedPassword };
    }
    if (!askedPassword && (await passwordField.isVisible())) {
      askedPassword = true;
      await atScreen('reauth');
      await passwordField.fill(password);
      await passwordField.press('Enter');
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no new API key secret shown (asked for the password: ${askedPassword})`);
}

const closeDialog = (page: Page) =>
  page.getByRole('dialog').getByRole('button', { name: 'Done', exact: true }).click();

describe('the team workspace', () => {
  it('sign-up, sign-in, an invited member, and an API key created, rotated and revoked', async () => {
    const owner = await openPage(browser, 'desktop');
    const member = await openPage(browser, 'mobile');
    const atOwner = screens(owner.page, 'workspace');
    const atMember = screens(member.page, 'workspace-member');
    try {
      const page = owner.page;

      // A signed-out page asks nothing about a session (no GET /me that answers 401): the
      // session's readable hint is absent (decision 0101).
      const sessionReads: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/workspace/v1/me') sessionReads.push(request.method());
      });

      // Sign up at /, sign out, sign in.
      await page.goto(`${service.publicUrl}/`);
      // / shows the sign-in screen, with the way to create a team.
      const toSignUp = page.getByRole('link', { name: /create a team|create (an )?account|sign up/i });
      await shown(toSignUp.or(button(page, 'Create account')));
      expect(sessionReads).toEqual([]);
      if (!(await button(page, 'Create account').isVisible())) await toSignUp.first().click();
      await shown(button(page, 'Create account'));
      await atOwner('sign-up');
      await signUp(page, OWNER);
      await secrets.addSession(owner.context, page);
      await atOwner('home');
      await signOut(page);
      await atOwner('sign-in');
      sessionReads.length = 0;
      await page.reload();
      await shown(button(page, 'Sign in'));
      expect(sessionReads).toEqual([]);
      await signIn(page, OWNER.email, OWNER.password);
      await secrets.addSession(owner.context, page);
      // Signed in, a reload reads the session and stays in the workspace.
      sessionReads.length = 0;
      await page.reload();
      await signedIn(page);
      expect(sessionReads).toContain('GET');

      // Invite a member; they accept by the emailed link in their own browser.
      await openSection(page, /members|team/i);
      await shown(button(page, 'Invite member'));
      await atOwner('members');
      await field(page, 'Email').fill(MEMBER.email);
      const inviteName = page.getByLabel(/^name$/i);
      if ((await inviteName.count()) > 0) await inviteName.first().fill(MEMBER.name);
      await button(page, 'Invite member').click();
      await expect.poll(() => page.getByText(MEMBER.email).count(), { timeout: TIMEOUT }).toBeGreaterThan(0);
      await atOwner('members-invited');
      const link = emailedLink(service, await lastAccountEmailTo(service, MEMBER.email), 'invitations');

      await member.page.goto(link);
      await shown(field(member.page, 'Password'));
      await atMember('accept-invitation');
      const yourName = field(member.page, 'Your name');
      if ((await yourName.count()) > 0) await yourName.fill(MEMBER.name);
      await field(member.page, 'Password').fill(MEMBER.password);
      await member.page
        .getByRole('button', { name: /accept|join|create account/i })
        .first()
        .click();
      await signedIn(member.page);
      await secrets.addSession(member.context, member.page);
      await atMember('member-home');

      // The member sees no Integrations, and the server refuses them a key.
      await expect(
        navigation(member.page)
          .getByRole('link', { name: /integrations/i })
          .count(),
      ).resolves.toBe(0);
      await member.page.goto(`${service.publicUrl}/workspace/integrations`);
      await member.page.waitForURL(/\/workspace$/, { timeout: TIMEOUT });
      await signedIn(member.page);
      await expect(button(member.page, 'Create key').count()).resolves.toBe(0);
      const me = (await inPage(member.page, 'GET', '/workspace/v1/me')).body as {
        csrf_token: string;
        role: string;
      };
      expect(me.role).toBe('member');
      const refused = await inPage(member.page, 'POST', '/workspace/v1/api-keys', {
        headers: { 'x-csrf-token': me.csrf_token, 'idempotency-key': 'member-try-1' },
        body: { name: 'Not mine', scopes: ['clients:read'] },
      });
      expect(refused.status).toBe(403);
      expect((refused.body as { code: string }).code).toBe('forbidden');

      // Integrations: create a key (the page asks for the password again), read its secret once.
      await openSection(page, /integrations/i);
      await shown(button(page, 'Create key'));
      await atOwner('integrations');
      await button(page, 'Create key').click();
      await shown(field(page, 'Key name'));
      await field(page, 'Key name').fill('Zapier sync');
      await page.getByLabel('Read clients', { exact: true }).check();
      await atOwner('create-key');
      await page.getByRole('dialog').getByRole('button', { name: 'Create key', exact: true }).click();
      const created = await secretAfterReauth(page, OWNER.password, [], atOwner);
      expect(created.askedPassword).toBe(true);
      const first = created.secret;
      await atOwner('key-created');
      expect((await apiRequest(service, first, 'GET', '/me')).status).toBe(200);

      // Rotate: a new secret; both work. (The clock moves a second so the list's newest-first order is sure.)
      await closeDialog(page);
      service.clock.advance(1);
      await button(page, 'Rotate').first().click();
      const second = (await secretAfterReauth(page, OWNER.password, [first], atOwner)).secret;
      await atOwner('key-rotated');
      expect(second).not.toBe(first);
      expect((await apiRequest(service, first, 'GET', '/me')).status).toBe(200);
      expect((await apiRequest(service, second, 'GET', '/me')).status).toBe(200);

      // Revoke the old key (the last of the list, newest first): its next request answers 401 api_key_inactive.
      await closeDialog(page);
      await expect.poll(() => button(page, 'Revoke').count(), { timeout: TIMEOUT }).toBe(2);
      await button(page, 'Revoke').last().click();
      await atOwner('revoke-key');
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
      await expect
        .poll(async () => (await apiRequest(service, first, 'GET', '/me')).status, { timeout: TIMEOUT })
        .toBe(401);
      const inactive = await apiRequest(service, first, 'GET', '/me');
      expect(inactive.body.code).toBe('api_key_inactive');
      expect((await apiRequest(service, second, 'GET', '/me')).status).toBe(200);
      await expect.poll(() => button(page, 'Revoke').count(), { timeout: TIMEOUT }).toBe(1);

      // The activity of the team tells what happened.
      await openSection(page, /activity/i);
      await expect
        .poll(() => page.getByRole('heading', { name: 'Activity' }).count(), { timeout: TIMEOUT })
        .toBe(1);
      await atOwner('activity');
      await atOwner('key-revoked');

      // A request of the signed-in page without X-CSRF-Token is refused and changes nothing.
      const keysBefore = await inPage(page, 'GET', '/workspace/v1/api-keys');
      const forged = await inPage(page, 'POST', '/workspace/v1/api-keys', {
        headers: { 'idempotency-key': 'no-csrf-1' },
        body: { name: 'Forged', scopes: ['clients:read'] },
      });
      expect(forged.status).toBe(403);
      expect((forged.body as { code: string }).code).toBe('csrf_token_invalid');
      const invite = await inPage(page, 'POST', '/workspace/v1/invitations', {
        body: { email: 'forged@example.com', name: 'Forged', role: 'owner' },
      });
      expect(invite.status).toBe(403);
      expect((invite.body as { code: string }).code).toBe('csrf_token_invalid');
      expect(await inPage(page, 'GET', '/workspace/v1/api-keys')).toEqual(keysBefore);
      const outbox = await service.context.pool.query('select 1 from mail_outbox where "to" = $1', [
        'forged@example.com',
      ]);
      expect(outbox.rowCount).toBe(0);

      owner.watch.assertClean();
      member.watch.assertClean();
    } finally {
      await owner.context.close();
      await member.context.close();
    }
  }, 60_000);
});
