import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { button, field, openSection, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/**
 * Clients in Chromium: a member adds a client with the keyboard alone, adds a second one,
 * searches, edits a client (a used email refused in words), and erases one, asked twice
 * (a dialog naming the client, then typing its email); sets a client's language, date
 * format and time zone when adding and editing. Every screen and dialog passes axe-core at
 * 390x844 and 1280x900.
 */

const OWNER = {
  team: 'Harbor Bookkeeping',
  name: 'Cleo Clients',
  email: 'cleo.clients@example.com',
  password: 'a long clients passphrase 4410',
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

describe('the workspace clients', () => {
  it('add (keyboard), search, edit with a used email refused, erase asked twice', async () => {
    const { page } = await openPage(browser, 'mobile');
    const at = screens(page, 'workspace-clients');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    await openSection(page, 'Clients');
    await shown(page.getByRole('heading', { level: 1, name: 'Clients' }));
    await shown(page.getByText('No clients yet.'));
    await at('empty');

    // Keyboard only: open the dialog, fill the fields, submit with Enter.
    await button(page, 'Add a client').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByLabel('Name', { exact: true }));
    await at('add-dialog');
    await dialog.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Analytical Engines');
    await page.keyboard.press('Enter');
    await shown(page.getByRole('status').getByText('Ada Lovelace was added.'));

    await button(page, 'Add a client').click();
    await dialog.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await dialog.getByLabel('Email', { exact: true }).fill('grace@example.com');
    await button(dialog, 'Add client').click();
    await shown(page.getByRole('status').getByText('Grace Hopper was added.'));

    // A second client with a used email is refused in words.
    await button(page, 'Add a client').click();
    await dialog.getByLabel('Name', { exact: true }).fill('Copy of Ada');
    await dialog.getByLabel('Email', { exact: true }).fill('ADA@example.com');
    await button(dialog, 'Add client').click();
    await shown(
      dialog.getByRole('alert').getByText('Another client of your team already has this email address.'),
    );
    await at('add-refused');
    await button(dialog, 'Cancel').click();

    // Search by company: it applies as typed, lives in the address, and survives a reload.
    await field(page, 'Search clients').fill('analytical');
    await shown(page.getByRole('status').getByText('1 client', { exact: true }));
    const clientRows = () => page.getByRole('main').locator('table.clients-table tbody tr');
    await expect.poll(() => clientRows().count(), { timeout: TIMEOUT }).toBe(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('analytical');
    await page.reload();
    await shown(page.getByRole('status').getByText('1 client', { exact: true }));
    await expect(field(page, 'Search clients').inputValue()).resolves.toBe('analytical');
    // Each row says the client's latest onboarding (none yet here).
    await shown(clientRows().getByText('No onboarding yet'));
    await at('searched');

    // Edit: a used email is refused, then a new name is saved.
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await shown(page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }));
    await at('client');
    // The fields sit behind Edit details, in a dialog (the client page is a hub).
    await button(page, 'Edit details').click();
    await shown(dialog.getByRole('heading', { name: 'Edit details of Ada Lovelace' }));
    await field(dialog, 'Email').fill('grace@example.com');
    await button(dialog, 'Save changes').click();
    await shown(
      dialog.getByRole('alert').getByText('Another client of your team already has this email address.'),
    );
    await at('edit-refused');
    await field(dialog, 'Email').fill('ada@example.com');
    await field(dialog, 'Name').fill('Ada King');
    await button(dialog, 'Save changes').click();
    await shown(page.getByRole('status').getByText('Changes saved.'));
    expect(await dialog.count()).toBe(0);
    await shown(page.getByRole('heading', { level: 1, name: 'Ada King' }));

    // Erase, asked twice: the dialog names the client, then the email must be typed.
    await button(page, 'Erase client').click();
    await shown(dialog.getByRole('heading', { name: 'Erase Ada King?' }));
    await at('erase-ask');
    await button(dialog, 'Continue').click();
    await shown(dialog.getByRole('heading', { name: 'Confirm erasing Ada King' }));
    await dialog.getByRole('textbox').fill('wrong@example.com');
    await button(dialog, 'Erase for good').click();
    await shown(dialog.getByText('Type ada@example.com exactly to confirm.'));
    await at('erase-confirm');
    await dialog.getByRole('textbox').fill('ada@example.com');
    await button(dialog, 'Erase for good').click();
    await shown(page.getByRole('heading', { level: 1, name: 'Clients' }));
    await shown(page.getByRole('link', { name: 'Grace Hopper' }));
    expect(await page.getByRole('link', { name: 'Ada King' }).count()).toBe(0);
    const { rows } = await service.context.pool.query(`select name, email from clients where email is null`);
    expect(rows).toHaveLength(1);
    await at('after-erase');
  }, 180_000);

  it("sets a client's language, date format and time zone when adding and editing", async () => {
    const { page } = await openPage(browser, 'desktop');
    const at = screens(page, 'workspace-clients-settings');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, { ...OWNER, email: 'cleo.settings@example.com', team: 'Harbor Settings' });
    await openSection(page, 'Clients');
    await button(page, 'Add a client').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Emmy Noether');
    await dialog.getByLabel('Email', { exact: true }).fill('emmy@example.com');
    await dialog.getByLabel('Language').selectOption('de-DE');
    await dialog.getByLabel('Date format').selectOption('DD.MM.YYYY');
    await dialog.getByLabel('Time zone').selectOption('Europe/Berlin');
    await at('add-settings');
    await button(dialog, 'Add client').click();
    await shown(page.getByRole('status').getByText('Emmy Noether was added.'));
    const stored = async () =>
      (
        await service.context.pool.query(
          `select locale, date_format, timezone, locale_chosen, date_format_chosen from clients
           order by created_at desc, position desc limit 1`,
        )
      ).rows[0];
    await expect.poll(stored, { timeout: TIMEOUT }).toMatchObject({
      locale: 'de-DE',
      date_format: 'DD.MM.YYYY',
      timezone: 'Europe/Berlin',
      locale_chosen: true,
    });

    // Editing: the language goes back to not chosen (the browser's, else the team's).
    await page.getByRole('link', { name: 'Emmy Noether' }).click();
    await shown(page.getByRole('heading', { level: 1, name: 'Emmy Noether' }));
    await button(page, 'Edit details').click();
    await shown(dialog.getByRole('heading', { name: 'Edit details of Emmy Noether' }));
    expect(await field(dialog, 'Language').inputValue()).toBe('de-DE');
    expect(await field(dialog, 'Time zone').inputValue()).toBe('Europe/Berlin');
    await field(dialog, 'Language').selectOption('');
    await field(dialog, 'Time zone').selectOption('Asia/Tokyo');
    await button(dialog, 'Save changes').click();
    await shown(page.getByRole('status').getByText('Changes saved.'));
    await at('edited-settings');
    await expect.poll(stored, { timeout: TIMEOUT }).toMatchObject({
      locale: 'en-US',
      locale_chosen: false,
      date_format: 'DD.MM.YYYY',
      date_format_chosen: true,
      timezone: 'Asia/Tokyo',
    });
  }, 120_000);
});
