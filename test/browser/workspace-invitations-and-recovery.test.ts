import * as OTPAuth from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { focusedElement, launchBrowser, openPage } from '../helpers/browser.ts';
import { registerSecrets } from '../helpers/run-log.ts';
import { signUp as signUpByApi } from '../integration/workspace-fixtures.ts';
import {
  button,
  field,
  openSection,
  screens,
  shown,
  signIn,
  signedIn,
  signOut,
  submitSignIn,
  TIMEOUT,
} from './workspace-page.ts';
import {
  expectWorkspaceLogFreeOf,
  inPage,
  Secrets,
  startWorkspaceService,
  type WorkspaceService,
} from './workspace-service.ts';

/**
 * Pending invitations on Members and two-factor recovery codes, in Chromium: an owner sees a
 * pending invitation and resends and revokes it with the keyboard (each confirmed in a
 * dialog); turning two-factor on shows 10 recovery codes once; signing in with a recovery code
 * instead of the app's code works, once, and is in Activity. Every screen passes axe-core at
 * 390x844 and 1280x900.
 */

const OWNER = {
  team: 'Harbour Ledger',
  email: 'hana.harbour@example.com',
  password: 'a harbour ledger passphrase 5521',
};
const INVITED = 'pending.person@example.com';

let service: WorkspaceService;
let browser: Browser;
const secrets = new Secrets();

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
  const { owner } = await signUpByApi(service, OWNER.email, OWNER.password, OWNER.team);
  secrets.add('password', OWNER.password);
  const invited = await owner.call('POST', '/workspace/v1/invitations', {
    email: INVITED,
    name: 'Pat Pending',
    role: 'admin',
  });
  expect(invited.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  expectWorkspaceLogFreeOf(service, secrets);
  await service?.stop();
});

const mailsTo = async (to: string) =>
  (await service.context.pool.query('select 1 from mail_outbox where "to" = $1', [to])).rowCount;

describe('pending invitations and recovery codes', () => {
  it('the Members page lists a pending invitation; Resend and Revoke work by keyboard, confirmed in a dialog', async () => {
    const { page, context } = await openPage(browser, 'desktop');
    const at = screens(page, 'workspace-invitations');
    await page.goto(`${service.publicUrl}/workspace/sign-in`);
    await signIn(page, OWNER.email, OWNER.password);
    await secrets.addSession(context, page);

    await openSection(page, 'Members');
    const pending = page.getByRole('region', { name: 'Pending invitations' });
    await shown(pending.getByRole('heading', { level: 3, name: INVITED }));
    await shown(pending.getByText('Pat Pending'));
    await at('members-pending');

    // Resend, by keyboard: the dialog opens on Cancel; Shift+Tab reaches the confirmation.
    await button(pending, `Resend the invitation to ${INVITED}`).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Resend the invitation to ${INVITED}?` });
    await shown(dialog);
    await expect.poll(() => focusedElement(page), { timeout: TIMEOUT }).toMatchObject({ label: 'Cancel' });
    await at('members-resend-dialog');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedElement(page)).toMatchObject({ label: 'Resend invitation', visible: true });
    await page.keyboard.press('Enter');
    await shown(
      page.getByRole('status').getByText(`The invitation to ${INVITED} was sent again with a new link.`),
    );
    await shown(pending.getByText('(sent 2 times)'));
    expect(await mailsTo(INVITED)).toBe(2);
    await at('members-resent');

    // Revoke, by keyboard; Escape first closes the dialog without revoking.
    await button(pending, `Revoke the invitation to ${INVITED}`).focus();
    await page.keyboard.press('Enter');
    const revoke = page.getByRole('dialog', { name: `Revoke the invitation to ${INVITED}?` });
    await shown(revoke);
    await page.keyboard.press('Escape');
    await expect.poll(() => revoke.count(), { timeout: TIMEOUT }).toBe(0);
    expect(await focusedElement(page)).toMatchObject({ label: `Revoke the invitation to ${INVITED}` });
    await page.keyboard.press('Enter');
    await shown(revoke);
    await at('members-revoke-dialog');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedElement(page)).toMatchObject({ label: 'Revoke invitation', visible: true });
    await page.keyboard.press('Enter');
    await shown(
      page
        .getByRole('status')
        .getByText(`The invitation to ${INVITED} was revoked: its link no longer works.`),
    );
    await shown(pending.getByText('No invitation is waiting to be accepted.'));
    await at('members-revoked');
    const listed = await inPage(page, 'GET', '/workspace/v1/invitations');
    expect(listed).toEqual({ status: 200, body: { data: [] } });
    await context.close();
  });

  it('two-factor set-up shows 10 recovery codes once; one signs in instead of the code, once, and is in Activity', async () => {
    const { page, context } = await openPage(browser, 'mobile');
    const at = screens(page, 'workspace-recovery');
    await page.goto(`${service.publicUrl}/workspace/sign-in`);
    await signIn(page, OWNER.email, OWNER.password);
    await secrets.addSession(context, page);

    await openSection(page, 'Your account');
    await shown(page.getByRole('heading', { level: 2, name: 'Change your password' }));
    await button(page, 'Set up two-factor authentication').click();
    const key = page.getByLabel('Key for manual entry');
    await shown(key);
    const secret = (await key.textContent())!.replace(/\s+/g, '');
    secrets.add('two-factor secret', secret);
    registerSecrets(secret);
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
      timestamp: service.clock.now().getTime(),
    });
    await field(page, '6-digit code from your app').fill(code);
    await field(page, '6-digit code from your app').press('Enter');
    await shown(page.getByText('Save these recovery codes now: they are shown only once.'));
    const list = page.getByRole('list', { name: 'Your recovery codes' });
    await shown(list);
    const codes = await list.locator('code').allTextContents();
    expect(codes).toHaveLength(10);
    for (const shownCode of codes) {
      expect(shownCode).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
      secrets.add('recovery code', shownCode);
    }
    registerSecrets(...codes);
    await shown(button(page, 'Copy codes'));
    await shown(button(page, 'Download codes'));
    const download = page.waitForEvent('download');
    await button(page, 'Download codes').click();
    expect((await download).suggestedFilename()).toBe('recovery-codes.txt');
    await at('account-recovery-codes');

    await button(page, 'I saved my codes').click();
    await shown(page.getByText('10 recovery codes left.'));
    expect(await list.count()).toBe(0);
    await at('account-recovery-left');

    // Sign in with a recovery code instead of the app's code.
    await signOut(page);
    await submitSignIn(page, OWNER.email, OWNER.password);
    await shown(field(page, 'Two-factor code'));
    await button(page, 'Use a recovery code instead').click();
    const recoveryField = field(page, 'Recovery code');
    await shown(recoveryField);
    await recoveryField.fill(codes[0]!);
    await at('sign-in-recovery-code');
    await button(page, 'Sign in').click();
    await signedIn(page);
    await secrets.addSession(context, page);

    await openSection(page, 'Your account');
    await shown(page.getByText('9 recovery codes left.'));
    await openSection(page, 'Activity');
    // Activity says who did it, as a sentence (the owner signed up through the API as Olive Owner).
    await shown(page.getByText('Olive Owner signed in with a recovery code'));
    await shown(page.getByText('9 recovery codes left'));
    await at('activity-recovery-sign-in');

    // The same code again: refused in words.
    await signOut(page);
    await submitSignIn(page, OWNER.email, OWNER.password);
    await button(page, 'Use a recovery code instead').click();
    await field(page, 'Recovery code').fill(codes[0]!);
    await button(page, 'Sign in').click();
    await shown(page.getByRole('alert').getByText('That recovery code is wrong or was already used.'));
    await at('sign-in-recovery-used');
    await context.close();
  });
});
