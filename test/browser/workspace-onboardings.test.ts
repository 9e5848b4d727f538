import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { adminRequest, createTemplate, request, updateTeam } from '../helpers/tenant.ts';
import { button, field, openSection, screens, shown, signUp } from './workspace-page.ts';
import { inPage, startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/**
 * Onboardings in Chromium: the month's usage above the list; a draft created from the
 * client and template pickers; sent with a PIN shown once; the client saves an answer, so
 * a resend asks the 5-minute question and then sends with force; assigned and dated; the
 * list filtered; cancelled, reopened (the usage line counts it once more), archived and
 * unarchived with the keyboard alone; at the monthly limit a reopen is refused in words.
 * Every screen and dialog passes axe-core at 390x844 and 1280x900.
 */

const OWNER = {
  team: 'Harbor Bookkeeping',
  name: 'Olga Onboard',
  email: 'olga.onboard@example.com',
  password: 'a long onboardings passphrase 7781',
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

const status = (page: Page, text: string) => shown(page.getByRole('status').getByText(text));

describe('the workspace onboardings', () => {
  it('create, send with a PIN, resend asked, assign, date, filter, cancel, reopen, archive, limit', async () => {
    const { page } = await openPage(browser, 'desktop');
    const at = screens(page, 'workspace-onboardings');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    const me = (await inPage(page, 'GET', '/workspace/v1/me')).body as {
      team: { id: string };
      member: { id: string };
      csrf_token: string;
    };
    const teamId = me.team.id;
    await updateTeam(service, teamId, { monthly_onboarding_limit: 5 } as never);
    await createTemplate(service, teamId, { name: 'Tax intake' });
    const client = await inPage(page, 'POST', '/workspace/v1/clients', {
      body: { name: 'Ada Lovelace', email: 'ada@example.com' },
      headers: { 'x-csrf-token': me.csrf_token },
    });
    expect(client.status).toBe(201);

    await openSection(page, 'Onboardings');
    await shown(page.getByRole('heading', { level: 1, name: 'Onboardings' }));
    await shown(page.getByText('0 of 5 onboardings this month'));
    // An empty list without filters says what to do, not that nothing matches.
    await shown(page.getByText('No onboardings yet. Choose New onboarding to invite a client.'));
    await at('list-empty');

    // Keyboard only: open the dialog, move to the due date, submit with Enter.
    await button(page, 'New onboarding').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByLabel('Template', { exact: true }));
    // No client is chosen for the member (decision 0090): pick one, keyboard only.
    expect(await dialog.getByRole('radio', { checked: true }).count()).toBe(0);
    await dialog.getByRole('radio', { name: /Ada Lovelace/ }).focus();
    await page.keyboard.press('Space');
    await shown(button(dialog, 'Create draft for Ada Lovelace'));
    await at('new-dialog');
    await dialog.getByLabel('Due date (optional)').fill('2030-01-31');
    await dialog.getByLabel('Due date (optional)').focus();
    await page.keyboard.press('Enter');
    await shown(page.getByRole('heading', { level: 1, name: 'Ada Lovelace: Tax intake' }));
    await shown(page.getByText('Not sent yet'));
    await at('draft');
    const onboardingId = page.url().split('/').at(-1)!;

    // Send with a PIN: shown once to pass on.
    await button(page, 'Send').click();
    await dialog.getByLabel('PIN (optional)').fill('12');
    await button(dialog, 'Send').click();
    await shown(dialog.getByText('A PIN is exactly 6 digits.'));
    await at('send-dialog');
    await dialog.getByLabel('PIN (optional)').fill('246810');
    await button(dialog, 'Send').click();
    await shown(dialog.getByText('246810'));
    await at('pin-shown');
    await button(dialog, 'I passed it on').click();
    await status(page, 'Sent. The invite email is on its way.');

    // The client opens the link and saves an answer: a resend asks first.
    const link = await adminRequest(service, 'GET', `/onboardings/${onboardingId}/link`);
    const token = link.body.token as string;
    const portal = (method: string, rest = '', body?: unknown) =>
      request(service, method, `/portal/v1/onboardings/${token}${rest}`, {
        body,
        headers: { 'x-onboarding-pin': '246810' },
      });
    const form = await portal('GET');
    expect(form.status).toBe(200);
    const snapshot = (await inPage(page, 'GET', `/workspace/v1/onboardings/${onboardingId}`)).body as {
      onboarding: { template_snapshot: { steps: { fields: { id: string }[] }[] } };
    };
    const fieldId = snapshot.onboarding.template_snapshot.steps[0]!.fields[0]!.id;
    expect((await portal('PUT', `/answers/${fieldId}`, { value: 'Ada' })).status).toBe(200);
    await button(page, 'Send a new link').click();
    await button(dialog, 'Send').click();
    await shown(
      dialog.getByText('The client saved an answer in the last 5 minutes. Send a new link anyway?'),
    );
    await at('force-question');
    await button(dialog, 'Send anyway').click();
    await status(page, 'Sent. The invite email is on its way.');
    await shown(page.getByText('Active (sent 2 times)'));

    // Assign and date.
    await field(page, 'Assign to').selectOption({ label: OWNER.name });
    await button(page, 'Save assignee').click();
    await status(page, 'Assignee saved.');
    await field(page, 'Due date').fill('2030-02-15');
    await button(page, 'Save due date').click();
    await status(page, 'Due date saved.');
    await shown(page.getByText('Feb 15, 2030'));
    await at('sent');

    // Cancel (confirmed), then reopen: sent again with a new link, counted once more.
    await button(page, 'Cancel onboarding').click();
    await shown(dialog.getByText('Ada Lovelace’s link stops working. You can reopen it later.'));
    await at('cancel-dialog');
    await button(dialog, 'Cancel onboarding').click();
    await status(page, 'The onboarding was cancelled.');
    await button(page, 'Reopen').click();
    await shown(dialog.getByText(/counts once more against your monthly limit/));
    await at('reopen-dialog');
    await button(dialog, 'Reopen and send').click();
    await status(page, 'Reopened. A new link is on its way to the client.');
    await shown(page.getByText('Active (sent 3 times)'));

    // Keyboard only: archive, then unarchive.
    await button(page, 'Archive').focus();
    await page.keyboard.press('Enter');
    await status(page, 'Archived. It no longer shows in the list.');
    await button(page, 'Unarchive').focus();
    await page.keyboard.press('Enter');
    await status(page, 'Back in the list.');

    // The list: usage counts the reopen; filters by assignee and due date apply at once.
    await page.getByRole('link', { name: 'All onboardings' }).click();
    await shown(page.getByText('2 of 5 onboardings this month'));
    await field(page, 'Assignee').selectOption({ label: 'Unassigned' });
    await shown(page.getByText('No onboardings match.'));
    await field(page, 'Assignee').selectOption({ label: OWNER.name });
    await field(page, 'Due date').selectOption({ label: 'No due date' });
    await shown(page.getByText('No onboardings match.'));
    await field(page, 'Due date').selectOption({ label: 'Any due date' });
    await shown(page.getByRole('link', { name: /Ada Lovelace/ }));
    await at('list-filtered');

    // At the monthly limit a reopen is refused in words and changes nothing.
    await page.getByRole('link', { name: /Ada Lovelace/ }).click();
    await shown(button(page, 'Cancel onboarding'));
    await button(page, 'Cancel onboarding').click();
    await button(dialog, 'Cancel onboarding').click();
    await status(page, 'The onboarding was cancelled.');
    await updateTeam(service, teamId, { monthly_onboarding_limit: 2 } as never);
    await button(page, 'Reopen').click();
    await button(dialog, 'Reopen and send').click();
    await shown(page.getByRole('alert').getByText(/Monthly onboarding limit reached/));
    await shown(page.getByText('Cancelled', { exact: true }));
    await at('limit-refused');
  }, 240_000);
});
