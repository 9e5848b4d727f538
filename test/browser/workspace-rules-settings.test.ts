import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { createTemplate } from '../helpers/tenant.ts';
import { button, field, openSection, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/**
 * Automations and Settings in Chromium: an owner signs up, creates a Send email rule in the
 * rule dialog (placeholders beside its texts) and sees it listed with its latest-run line,
 * and a Create new onboarding rule whose template is chosen by name;
 * then changes the team's sender name and accent colour in Settings and sees them saved
 * (also after a reload). Both screens and the rule dialog pass axe-core at 390x844 and
 * 1280x900.
 */

const OWNER = {
  team: 'Harbor Bookkeeping',
  name: 'Rita Rules',
  email: 'rita.rules@example.com',
  password: 'a long rules passphrase 5530',
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

describe('the workspace automations and settings', () => {
  it('a Send email rule created and listed; sender name and accent colour saved', async () => {
    const { page } = await openPage(browser, 'desktop');
    const at = screens(page, 'workspace-rules-settings');

    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);

    // Automations: create a Send email rule in the dialog.
    await openSection(page, 'Automations');
    await shown(page.getByRole('heading', { level: 1, name: 'Automations' }));
    await shown(button(page, 'Create rule'));
    await at('automations-empty');
    await button(page, 'Create rule').click();
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByLabel('Rule name', { exact: true }));
    await shown(dialog.getByText('{{client_name}}'));
    await at('rule-dialog');
    await dialog.getByLabel('Rule name', { exact: true }).fill('Welcome email');
    await dialog.getByLabel('Trigger', { exact: true }).selectOption({ label: 'Onboarding completed' });
    await dialog.getByLabel('Action', { exact: true }).selectOption({ label: 'Send email' });
    await dialog.getByLabel('Subject', { exact: true }).fill('Thank you, {{client_name}}');
    await dialog
      .getByLabel('Body', { exact: true })
      .fill('Hello {{client.name}},\nwe have everything we need.');
    // Who receives it is said; an unknown placeholder is refused beside its field, with the list.
    await shown(dialog.getByText(/the onboarding's client, at the email address on their client record/));
    await button(dialog, 'Save rule').click();
    await shown(
      dialog.getByText(/\{\{client\.name\}\} is not a placeholder\. Use one of: \{\{client_name\}\}/),
    );
    await expect
      .poll(() => dialog.getByLabel('Body', { exact: true }).getAttribute('aria-invalid'), {
        timeout: TIMEOUT,
      })
      .toBe('true');
    await at('rule-dialog-placeholder-refused');
    await dialog
      .getByLabel('Body', { exact: true })
      .fill('Hello {{client_name}},\nwe have everything we need.');
    // The preview is rendered by the server for a sample onboarding; a test goes to the member.
    await button(dialog, 'Preview').click();
    await shown(dialog.getByText('Thank you, Alex Sample'));
    await button(dialog, 'Send a test to me').click();
    await shown(dialog.getByText(/A test was sent to you at /));
    await at('rule-dialog-preview');
    await button(dialog, 'Save rule').click();
    await shown(page.getByRole('status').getByText('Rule Welcome email created.'));
    const row = page.getByRole('listitem').filter({ hasText: 'Welcome email' });
    await shown(row);
    await shown(row.getByText('Onboarding completed'));
    await shown(row.getByText('Send email'));
    await shown(row.getByText('On', { exact: true }));
    await shown(row.getByText('Has not run yet'));
    await at('automations-listed');

    // The edit dialog shows the saved action's texts.
    await button(row, 'Edit Welcome email').click();
    await expect
      .poll(() => dialog.getByLabel('Subject', { exact: true }).inputValue(), { timeout: TIMEOUT })
      .toBe('Thank you, {{client_name}}');
    await at('rule-dialog-edit');
    await button(dialog, 'Cancel').click();

    // Create new onboarding: the template is chosen by name from the team's own templates.
    const me = (await page.evaluate(`fetch('/workspace/v1/me').then((r) => r.json())`)) as {
      team: { id: string };
    };
    const template = await createTemplate(service, me.team.id, { name: 'Bookkeeping intake' });
    await button(page, 'Create rule').click();
    await shown(dialog.getByLabel('Rule name', { exact: true }));
    await dialog.getByLabel('Rule name', { exact: true }).fill('Next year intake');
    await dialog.getByLabel('Trigger', { exact: true }).selectOption({ label: 'Onboarding completed' });
    await dialog.getByLabel('Action', { exact: true }).selectOption({ label: 'Create new onboarding' });
    await button(dialog, 'Save rule').click();
    await expect
      .poll(() => dialog.getByLabel('Template', { exact: true }).getAttribute('aria-invalid'), {
        timeout: TIMEOUT,
      })
      .toBe('true');
    await dialog.getByLabel('Template', { exact: true }).selectOption({ label: 'Bookkeeping intake' });
    await at('rule-dialog-template');
    await button(dialog, 'Save rule').click();
    await shown(page.getByRole('status').getByText('Rule Next year intake created.'));
    const rules = await page.evaluate(`fetch('/workspace/v1/automation-rules').then((r) => r.json())`);
    expect(rules).toMatchObject({
      data: expect.arrayContaining([
        expect.objectContaining({
          name: 'Next year intake',
          action: expect.objectContaining({ type: 'create_onboarding', template_id: template.id }),
        }),
      ]),
    });

    // Settings: sender name and accent colour.
    await openSection(page, 'Settings');
    await shown(page.getByRole('heading', { level: 1, name: 'Settings' }));
    const sender = field(page, 'Email sender name');
    await shown(sender);
    await at('settings');
    await sender.fill('Harbor Team');
    // A light colour is refused beside its field, in words, and the field takes the focus.
    await field(page, 'Accent colour code').fill('#ffff00');
    await button(page, 'Save settings').click();
    await shown(
      page.getByText(
        /too light to read on white: choose a darker one \(contrast 1\.07:1, at least 4\.5:1 needed\)/,
      ),
    );
    await expect.poll(() => field(page, 'Accent colour code').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate('document.activeElement?.value')).toBe('#ffff00');
    await at('settings-refused');
    await field(page, 'Accent colour code').fill('#1a5fb4');
    await button(page, 'Save settings').click();
    await shown(page.getByRole('status').getByText('Settings saved.'));
    await expect.poll(() => field(page, 'Accent colour').inputValue(), { timeout: TIMEOUT }).toBe('#1a5fb4');

    const team = await page.evaluate(`fetch('/workspace/v1/team').then((r) => r.json())`);
    expect(team).toMatchObject({ team: { email_sender_name: 'Harbor Team', accent_color: '#1a5fb4' } });
    await page.reload();
    await expect
      .poll(() => field(page, 'Email sender name').inputValue(), { timeout: TIMEOUT })
      .toBe('Harbor Team');
    await expect
      .poll(() => field(page, 'Accent colour code').inputValue(), { timeout: TIMEOUT })
      .toBe('#1a5fb4');
    await at('settings-saved');
  });
});
