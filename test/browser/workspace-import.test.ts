import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { createTemplate, updateTeam } from '../helpers/tenant.ts';
import { button, openSection, screens, shown, signUp } from './workspace-page.ts';
import { inPage, startWorkspaceService, teamIdOf, type WorkspaceService } from './workspace-service.ts';

/**
 * Importing clients and sending them a template in Chromium, by keyboard where a person
 * would: on Clients, "Import clients" opens the dialog; a CSV (semicolons) is chosen; the
 * preview guesses the columns, the member maps the one it missed, reads the bad row and the
 * merge in words, imports with Enter; then sends one template to the imported clients with the
 * plan's monthly limit leaving one refused, and reads the summary naming it. axe-core at
 * 390x844 and 1280x900 on every stage.
 */

const OWNER = {
  team: 'Quay Accountants',
  name: 'Ines Import',
  email: 'ines.import@example.com',
  password: 'a long import passphrase 5521',
};

const CSV = [
  'Full name;Email;Organisation;Contact number',
  'Ada Lovelace;ada@example.com;Engines Ltd;+44 20 7946 0001',
  'Grace Hopper;grace@example.com;;',
  'Bob;bob@;;',
  'Alan Turing;alan@example.com;Bletchley;',
  'ADA L.;ADA@example.com ;;+44 20 7946 0009',
  'Katherine Johnson;katherine@example.com;NASA;',
].join('\n');

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

describe('importing clients and sending them a template', () => {
  it('upload, map, confirm, send, read the summary', async () => {
    const { page } = await openPage(browser, 'desktop');
    const at = screens(page, 'h4-import');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    const teamId = await teamIdOf(page);
    await createTemplate(service as never, teamId, { name: 'Welcome pack' });
    const usage = await inPage(page, 'GET', '/workspace/v1/onboardings/usage');
    const used = (usage.body as { used: number }).used;
    await updateTeam(service as never, teamId, { monthly_onboarding_limit: used + 3 });

    await openSection(page, 'Clients');
    await button(page, 'Import clients').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    const file = dialog.getByLabel('CSV file');
    await shown(file);
    await at('choose-file');
    await file.setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });

    // The guess: name, email and company; the phone column is mapped by the member.
    await shown(dialog.getByText('Row 4: the email “bob@” is not an email address'));
    await shown(dialog.getByText('Row 6 repeats the email ada@example.com of row 2: merged into row 2'));
    expect(await dialog.getByLabel('Company', { exact: true }).inputValue()).toBe('2');
    const phone = dialog.getByLabel('Phone', { exact: true });
    expect(await phone.inputValue()).toBe('');
    await phone.focus();
    await phone.selectOption({ label: 'Contact number' });
    await shown(dialog.getByRole('cell', { name: '+44 20 7946 0001' }));
    await at('preview');

    // Confirm with the keyboard.
    await button(dialog, 'Import 4 clients').focus();
    await page.keyboard.press('Enter');
    await shown(dialog.getByText('4 clients imported; 0 were already clients.'));
    await shown(dialog.getByRole('heading', { name: 'Send a template to these 4 clients' }));

    const template = dialog.getByLabel('Template', { exact: true });
    await template.focus();
    await template.selectOption({ label: 'Welcome pack' });
    await page.keyboard.press('Tab');
    await page.keyboard.type('12312031');
    await at('send');
    await button(dialog, 'Send to 4 clients').focus();
    await page.keyboard.press('Enter');

    await shown(dialog.getByRole('heading', { name: '3 sent, 1 refused' }));
    await shown(
      dialog.getByText(
        'Katherine Johnson (katherine@example.com): the plan’s monthly limit of onboardings is reached',
      ),
    );
    await at('summary');
    const after = await inPage(page, 'GET', '/workspace/v1/onboardings/usage');
    expect((after.body as { used: number }).used).toBe(used + 3);
    await button(dialog, 'Done').click();
    await shown(page.getByRole('link', { name: 'Katherine Johnson' }));
  }, 60_000);
});
