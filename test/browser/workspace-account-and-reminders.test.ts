import * as OTPAuth from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { focusedElement, launchBrowser, openPage } from '../helpers/browser.ts';
import {
  button,
  field,
  navigation,
  openSection,
  screens,
  shown,
  openMenu,
  signedIn,
  signOut,
  signUp,
  submitSignIn,
  TIMEOUT,
} from './workspace-page.ts';
import { createTemplate } from '../helpers/tenant.ts';
import {
  emailedLink,
  inPage,
  lastAccountEmailTo,
  startWorkspaceService,
  type WorkspaceService,
} from './workspace-service.ts';

/**
 * The reminder schedule in Settings and two-factor set-up on Your account, in Chromium:
 * an owner edits the team's default reminder schedule with the keyboard and sees the example
 * dates follow; a member sees it read-only and the server refuses them (403); the owner turns
 * two-factor sign-in on with a code computed here (otpauth), signs out, and signs in again
 * with a wrong code (refused in words) and a right one, then turns it off after confirming
 * the password. On an onboarding's page the team copies the client's link (read back from
 * the clipboard) and sends a reminder now with a personal message, with the keyboard alone;
 * the timeline names who, and past the limit the refusal is said in words. Every screen
 * passes axe-core at 390x844 and 1280x900.
 */

const OWNER = {
  team: 'Quayside Tax',
  name: 'Tomas Twofactor',
  email: 'tomas.twofactor@example.com',
  password: 'a long reminder passphrase 8812',
};
const MEMBER = {
  name: 'Mina Member',
  email: 'mina.member@example.com',
  password: 'a member long passphrase 4410',
};

let service: WorkspaceService;
let browser: Browser;

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const DAY_MS = 86_400_000;
/** The page's date format (en-US, medium, UTC) of the example onboarding sent now. */
const shownDate = (daysFromNow: number) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(Date.now() + daysFromNow * DAY_MS),
  );

const previewItems = (page: Page) =>
  page.locator('.reminder-preview li').evaluateAll((items) => items.map((item) => item.textContent?.trim()));

async function csrfOf(page: Page): Promise<string> {
  const me = await inPage(page, 'GET', '/workspace/v1/me');
  return (me.body as { csrf_token: string }).csrf_token;
}

function totp(secret: string) {
  return new OTPAuth.TOTP({
    issuer: 'Client onboarding',
    label: OWNER.email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}
/** The code by the service's clock (the test clock), and one that is surely wrong. */
const codeNow = (secret: string) => totp(secret).generate({ timestamp: service.clock.now().getTime() });
const wrongCode = (code: string) => code.replace(/^./, (digit) => String((Number(digit) + 5) % 10));

describe('the reminder schedule and two-factor set-up', () => {
  it('an owner edits the reminder schedule and sees the example dates change; a member may not', async () => {
    const { page } = await openPage(browser, 'desktop');
    const at = screens(page, 'workspace-reminders');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);

    await openSection(page, 'Settings');
    await shown(page.getByRole('heading', { level: 2, name: 'Reminder schedule' }));
    // The default: 3 and 7 days after send.
    await expect
      .poll(() => previewItems(page), { timeout: TIMEOUT })
      .toEqual([`${shownDate(3)} · 3 days after send`, `${shownDate(7)} · 7 days after send`]);
    await shown(page.getByText(`due in 14 days (${shownDate(14)})`));
    await at('settings-reminders-default');

    // Keyboard only: add a reminder 2 days before due.
    await button(page, 'Add a reminder').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => focusedElement(page), { timeout: TIMEOUT })
      .toMatchObject({ label: 'Number of days' });
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'select', label: 'When' });
    await page.keyboard.press('ArrowDown');
    const third = page.getByRole('group', { name: 'Reminder 3' });
    await expect.poll(() => field(third, 'When').inputValue(), { timeout: TIMEOUT }).toBe('before_due');
    await expect
      .poll(() => previewItems(page), { timeout: TIMEOUT })
      .toEqual([
        `${shownDate(3)} · 3 days after send`,
        `${shownDate(7)} · 7 days after send`,
        `${shownDate(12)} · 2 days before due`,
      ]);

    // A wrong number is said under its field, which takes focus.
    const first = page.getByRole('group', { name: 'Reminder 1' });
    await field(first, 'Number of days').fill('0');
    await button(page, 'Save reminder schedule').click();
    await shown(first.getByText('Enter a whole number of days from 1 to 365.'));
    await expect
      .poll(() => focusedElement(page), { timeout: TIMEOUT })
      .toMatchObject({ label: 'Number of days' });
    await at('settings-reminders-invalid');

    // Reminder 1 becomes 1 day after due; reminder 2 is removed with the keyboard.
    await field(first, 'Number of days').fill('1');
    await field(first, 'When').selectOption({ label: 'days after due' });
    await button(page, 'Remove reminder 2').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => previewItems(page), { timeout: TIMEOUT })
      .toEqual([`${shownDate(12)} · 2 days before due`, `${shownDate(15)} · 1 day after due`]);
    await button(page, 'Save reminder schedule').click();
    await shown(page.getByRole('status').getByText('Reminder schedule saved. New onboardings use it.'));
    await at('settings-reminders-saved');
    const team = await inPage(page, 'GET', '/workspace/v1/team');
    expect((team.body as { team: { reminder_schedule: unknown } }).team.reminder_schedule).toEqual([
      { when: 'after_due', days: 1 },
      { when: 'before_due', days: 2 },
    ]);
    // The change is in the activity list.
    await openSection(page, 'Activity');
    await shown(page.getByText("Tomas Twofactor changed the team's reminder schedule"));

    // A member reads the schedule but has no way to change it, and the server refuses them.
    const csrf = await csrfOf(page);
    const invite = await inPage(page, 'POST', '/workspace/v1/invitations', {
      body: { email: MEMBER.email, name: MEMBER.name, role: 'member' },
      headers: { 'x-csrf-token': csrf },
    });
    expect(invite.status).toBe(201);
    const member = await openPage(browser, 'mobile');
    await member.page.goto(
      emailedLink(service, await lastAccountEmailTo(service, MEMBER.email), 'invitations'),
    );
    await shown(field(member.page, 'Password'));
    // Signed out, the invitation names the role offered (its text is in the first chunk's).
    await shown(member.page.getByText(`as Member (${MEMBER.email})`));
    const yourName = field(member.page, 'Your name');
    if ((await yourName.count()) > 0) await yourName.fill(MEMBER.name);
    await field(member.page, 'Password').fill(MEMBER.password);
    await member.page
      .getByRole('button', { name: /accept|join|create account/i })
      .first()
      .click();
    await signedIn(member.page);
    await openSection(member.page, 'Settings');
    await shown(member.page.getByRole('heading', { level: 2, name: 'Reminder schedule' }));
    await expect.poll(() => previewItems(member.page), { timeout: TIMEOUT }).toHaveLength(2);
    expect(await button(member.page, 'Add a reminder').count()).toBe(0);
    expect(await button(member.page, 'Save reminder schedule').count()).toBe(0);
    expect(
      await field(member.page.getByRole('group', { name: 'Reminder 1' }), 'Number of days').isDisabled(),
    ).toBe(true);
    await screens(member.page, 'workspace-reminders')('settings-reminders-member');
    const refused = await inPage(member.page, 'PATCH', '/workspace/v1/team', {
      body: { reminder_schedule: [{ when: 'after_send', days: 1 }] },
      headers: { 'x-csrf-token': await csrfOf(member.page) },
    });
    expect([refused.status, (refused.body as { code: string }).code]).toEqual([403, 'forbidden']);
    await member.context.close();
  });

  it('two-factor sign-in: set up with a code, asked at sign-in (a wrong code refused in words), switched off', async () => {
    const { page } = await openPage(browser, 'mobile');
    const at = screens(page, 'workspace-two-factor');
    await page.goto(`${service.publicUrl}/workspace/sign-in`);
    await submitSignIn(page, OWNER.email, OWNER.password);
    await signedIn(page);

    await openSection(page, 'Your account');
    await shown(page.getByRole('heading', { level: 1, name: 'Your account' }));
    await shown(page.getByText('Two-factor authentication is off.'));
    await at('account-off');
    await button(page, 'Set up two-factor authentication').click();
    const qr = page.getByRole('img', { name: /QR code for your authenticator app/ });
    await shown(qr);
    expect(await qr.locator('svg').count()).toBe(1);
    const key = page.getByLabel('Key for manual entry');
    const secret = (await key.textContent())!.replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await at('account-setting-up');

    // A wrong code: said in words under the field; nothing turned on.
    const codeField = field(page, '6-digit code from your app');
    await codeField.fill(wrongCode(codeNow(secret)));
    await codeField.press('Enter');
    await shown(page.getByText(/That code is not right or has expired/));
    await at('account-wrong-code');
    await codeField.fill(codeNow(secret));
    await codeField.press('Enter');
    await shown(page.getByRole('status').getByText(/Two-factor authentication is now on/));
    await shown(page.getByText('Two-factor authentication is on.'));
    await at('account-on');

    // Sign-in asks for the code; a code is used once, so the next comes 30 seconds on.
    await signOut(page);
    service.clock.advance(31);
    await submitSignIn(page, OWNER.email, OWNER.password);
    const signInCode = field(page, 'Two-factor code');
    await shown(signInCode);
    await shown(page.getByRole('alert').getByText('Enter the 6-digit code from your authenticator app.'));
    await at('sign-in-code');
    await signInCode.fill(wrongCode(codeNow(secret)));
    await button(page, 'Sign in').click();
    await shown(page.getByRole('alert').getByText('The two-factor code is wrong or expired.'));
    await at('sign-in-wrong-code');
    await signInCode.fill(codeNow(secret));
    await button(page, 'Sign in').click();
    await signedIn(page);

    // Switching off asks for the password first.
    await openSection(page, 'Your account');
    await shown(page.getByText('Two-factor authentication is on.'));
    await button(page, 'Turn off two-factor authentication').click();
    const dialog = page.getByRole('dialog');
    await shown(field(dialog, 'Password'));
    await at('account-reauth');
    await field(dialog, 'Password').fill(OWNER.password);
    await field(dialog, 'Password').press('Enter');
    await shown(page.getByRole('status').getByText(/Two-factor authentication is off/));
    await at('account-turned-off');
    const state = await inPage(page, 'GET', '/workspace/v1/me/totp');
    expect(state.body).toEqual({ enabled: false });

    // Signing in asks only for the password again.
    await signOut(page);
    await submitSignIn(page, OWNER.email, OWNER.password);
    await signedIn(page);
    await openMenu(page);
    expect(await navigation(page).getByRole('link', { name: 'Your account' }).count()).toBe(1);
  });

  it('the client’s link is copied, and a reminder with a message goes with the keyboard; past the limit it is refused in words', async () => {
    const { page } = await openPage(browser, 'mobile', {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const at = screens(page, 'workspace-client-link');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, {
      team: 'Harbour Ledger',
      name: 'Lena Link',
      email: 'lena.link@example.com',
      password: 'a long link passphrase 5521',
    });
    const me = (await inPage(page, 'GET', '/workspace/v1/me')).body as {
      team: { id: string };
      csrf_token: string;
    };
    const headers = { 'x-csrf-token': me.csrf_token };
    const template = await createTemplate(service, me.team.id, { name: 'Year-end intake' });
    const client = await inPage(page, 'POST', '/workspace/v1/clients', {
      body: { name: 'Ada Lovelace', email: 'ada.link@example.com' },
      headers,
    });
    const created = await inPage(page, 'POST', '/workspace/v1/onboardings', {
      body: { client_id: (client.body as { client: { id: string } }).client.id, template_id: template.id },
      headers,
    });
    const onboardingId = (created.body as { onboarding: { id: string } }).onboarding.id;
    expect(
      (await inPage(page, 'POST', `/workspace/v1/onboardings/${onboardingId}/send`, { body: {}, headers }))
        .status,
    ).toBe(200);

    await page.goto(`${service.publicUrl}/workspace/onboardings/${onboardingId}`);
    await shown(page.getByRole('heading', { level: 2, name: 'The client’s link' }));
    const link = field(page, 'Link to the client’s form');
    await expect
      .poll(() => link.inputValue(), { timeout: TIMEOUT })
      .toMatch(new RegExp(`^${service.publicUrl}/f/[0-9a-f]{64}$`));
    await button(page, 'Copy link').click();
    await shown(page.getByRole('status').getByText('Link copied.'));
    // The page's clipboard, read in the browser (the test's own types know no DOM).
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(await link.inputValue());
    await at('link');

    // Keyboard only: open the dialog, write a message, send.
    await button(page, 'Send a reminder now').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect
      .poll(() => focusedElement(page), { timeout: TIMEOUT })
      .toMatchObject({ label: 'Personal message (optional)' });
    await page.keyboard.type('Only the bank statements are missing. Thank you!');
    await at('remind-dialog');
    await page.keyboard.press('Tab');
    expect(await focusedElement(page)).toMatchObject({ label: 'Send reminder' });
    await page.keyboard.press('Enter');
    await shown(page.getByRole('status').getByText('Reminder sent. The email is on its way.'));
    await shown(page.locator('li[data-kind="client_reminded"]').getByText('by Lena Link'));
    await expect.poll(() => dialog.count(), { timeout: TIMEOUT }).toBe(0);

    // Two more go; the fourth within 24 hours is refused in words and the dialog stays.
    for (let sent = 0; sent < 2; sent++) {
      expect(
        (
          await inPage(page, 'POST', `/workspace/v1/onboardings/${onboardingId}/remind`, {
            body: {},
            headers,
          })
        ).status,
      ).toBe(201);
    }
    await button(page, 'Send a reminder now').click();
    await button(dialog, 'Send reminder').click();
    await shown(
      dialog
        .getByRole('alert')
        .getByText(
          /Three reminders were sent to this client in the last 24 hours\. Try again in about 24 hours\./,
        ),
    );
    await at('remind-limit');
    await button(dialog, 'Cancel').click();
    await page.reload();
    await shown(page.getByText(/3 reminders were sent in the last 24 hours\. The next can go after/));
    await at('link-waiting');
  });
});
