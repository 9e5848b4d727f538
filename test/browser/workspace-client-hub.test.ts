import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  VIEWPORTS,
  type ViewportName,
} from '../helpers/browser.ts';
import { createApiKey, createTemplate } from '../helpers/tenant.ts';
import { formIds, formTemplate, portal, uploadFile } from '../integration/portal-fixtures.ts';
import { SAMPLE_PNG, sendForm, type FormTenant } from './form-service.ts';
import { button, field, shown, signUp } from './workspace-page.ts';
import { inPage, startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/**
 * The client as a hub, the new-onboarding dialog and the quick review, in Chromium at
 * 1280x900 and 390x844 (one page, resized), axe-core on every new screen:
 * - the onboarding page's primary action is Review while answers wait (Reopen secondary),
 *   Send a reminder while the team waits on the client; an image answer
 *   previews inline; the answers are grouped by step with each step's progress;
 * - keyboard only: one answer chosen to send back, Approve step approves the rest of its
 *   step, and the chosen one goes back rejected with its reason in one send;
 * - the client's page lists their onboarding (with its status), file, payment and activity,
 *   and New onboarding opens with the client given and the button naming them;
 * - from Onboardings the dialog has no client chosen; searching and picking one names them
 *   on the button, which creates the draft.
 */

const OWNER = {
  team: 'Hub Advisors',
  name: 'Hana Hub',
  email: 'hana.hub@example.com',
  password: 'a long hub passphrase 7731',
};
const REASON = 'Please write your full legal name';
const SHOTS = '/tmp/shots';

let service: WorkspaceService;
let browser: Browser;

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Screenshots at both sizes (looked at by hand) and zero axe-core violations at each. */
async function check(page: Page, screen: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const viewport of ['desktop', 'mobile'] as ViewportName[]) {
    await page.setViewportSize(VIEWPORTS[viewport].viewport!);
    // The whole page once (desktop); the phone's first screen is enough to look at.
    await page.screenshot({
      path: `${SHOTS}/h5-${screen}-${viewport}.png`,
      fullPage: viewport === 'desktop',
    });
    await expectNoAxeViolations(page, `${screen} (${viewport})`);
  }
  await page.setViewportSize(VIEWPORTS.desktop.viewport!);
}

/** A screenshot only, of a screen that is not new (axe runs where the screens are new). */
async function shot(page: Page, screen: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/h5-${screen}-desktop.png`, fullPage: true });
}

/** The client fills and submits the form over the portal API: a PNG as the ID document. */
async function clientCompletes(tenant: FormTenant, token: string) {
  const { fields, steps } = formIds(tenant.template as never);
  const put = (fieldId: string, value: string) =>
    portal(service, token, 'PUT', `/answers/${fieldId}`, { body: { value } });
  expect((await put(fields.fullName, 'Ada Lovelace')).status).toBe(200);
  expect((await put(fields.nickname, 'Ada')).status).toBe(200);
  expect((await portal(service, token, 'POST', `/steps/${steps.about}/submit`)).status).toBe(200);
  const upload = await uploadFile(service, token, fields.idDocument, {
    name: 'passport-scan.png',
    type: 'image/png',
    content: SAMPLE_PNG,
  });
  expect(upload.status).toBe(201);
  const signed = await portal(service, token, 'POST', `/fields/${fields.agreement}/signature`, {
    body: { signer_name: 'Ada Lovelace', signer_email: 'ada@example.com' },
  });
  expect(signed.status).toBe(201);
  expect((await portal(service, token, 'POST', `/steps/${steps.documents}/submit`)).status).toBe(200);
  return fields;
}

describe('the client as a hub and the quick review', () => {
  it('reviews by step, sends one back, and runs the week from the client’s page', async () => {
    const { page } = await openPage(browser, 'desktop');
    await page.goto(`${service.publicUrl}/`);
    const toSignUp = page.getByRole('link', { name: /create a team|create (an )?account|sign up/i });
    await shown(toSignUp.or(button(page, 'Create account')));
    if (!(await button(page, 'Create account').isVisible())) await toSignUp.first().click();
    await signUp(page, OWNER);
    const me = (await inPage(page, 'GET', '/workspace/v1/me')).body as {
      team: { id: string };
      csrf_token: string;
    };
    const key = await createApiKey(service, me.team.id);
    const template = await createTemplate(service, me.team.id, formTemplate());
    const tenant = { ...key, teamId: me.team.id, template } as unknown as FormTenant;
    const sent = await sendForm(service, tenant, {
      client: { name: 'Ada Lovelace', email: 'ada.lovelace@example.com' },
    });
    const grace = await sendForm(service, tenant, {
      client: { name: 'Grace Hopper', email: 'grace@example.com' },
    });
    const fields = await clientCompletes(tenant, sent.token);
    const paid = await inPage(
      page,
      'POST',
      `/workspace/v1/onboardings/${sent.onboardingId}/fields/${fields.deposit}/mark-paid`,
      { body: { note: 'Bank transfer' }, headers: { 'x-csrf-token': me.csrf_token } },
    );
    expect(paid.status).toBe(201);

    // The onboarding page: Review is the primary action; the image previews inline.
    await page.goto(`${service.publicUrl}/workspace/onboardings/${sent.onboardingId}`);
    const review = button(page, /^Review \d+ answers$/);
    await shown(review);
    expect(await review.getAttribute('class')).toBe('button-primary');
    expect(await button(page, 'Reopen').getAttribute('class')).toBe('button-secondary');
    const preview = page.getByRole('img', { name: 'Preview of passport-scan.png' });
    await shown(preview);
    // The bytes arrived and decoded: an image, not a broken icon.
    const width = await preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    expect(width).toBeGreaterThan(0);
    await shown(page.getByText('0 of 2 approved'));
    await shown(page.getByText('$50.00 · Marked as paid'));
    await check(page, 'review');

    // Keyboard only: Review, choose Full name to send back, approve the rest of the step.
    await review.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('checkbox', { name: 'Choose to send back Full name' }).focus();
    await page.keyboard.press('Space');
    await button(page, 'Approve step (1) About you').focus();
    await page.keyboard.press('Enter');
    await shown(page.getByText('1 answer approved.'));
    await shown(page.getByText('1 of 2 approved'));
    await button(page, 'Send back 1 chosen answer').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByRole('heading', { name: 'Send 1 answer back to the client' }));
    await dialog.getByLabel('Decision').focus();
    await page.keyboard.press('ArrowDown'); // Request changes → Reject
    await page.keyboard.press('Tab');
    await page.keyboard.type(REASON);
    await shot(page, 'send-back-dialog');
    await button(dialog, 'Send 1 answer back').focus();
    await page.keyboard.press('Enter');
    await shown(page.getByText('1 answer sent back; the client was emailed once.'));
    const answers = (await inPage(page, 'GET', `/workspace/v1/onboardings/${sent.onboardingId}/answers`))
      .body as { answers: Array<{ label: string; status: string; reason: string | null }> };
    expect(
      answers.answers.filter((one) => one.label !== 'Engagement letter' && one.label !== 'ID document'),
    ).toEqual([
      expect.objectContaining({ label: 'Full name', status: 'rejected', reason: REASON }),
      expect.objectContaining({ label: 'Nickname', status: 'approved' }),
    ]);

    // The client's page: onboardings with status, the file, the payment, the activity.
    await page.getByRole('link', { name: 'Ada Lovelace', exact: true }).click();
    await shown(page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }));
    const onboardings = page.locator('section', { has: page.getByRole('heading', { name: 'Onboardings' }) });
    await shown(onboardings.getByRole('link', { name: 'Client onboarding pack' }));
    await shown(onboardings.getByText('Changes requested (waiting on the client)'));
    for (const name of ['Files', 'Payments', 'Activity']) {
      await shown(page.getByRole('heading', { name, exact: true, level: 2 }));
    }
    await shown(page.getByRole('link', { name: 'Download passport-scan.png' }));
    await shown(page.getByText('Deposit: $50.00'));
    await shown(page.locator('ol.timeline li', { hasText: 'Completed' }));
    await check(page, 'client-hub');

    // New onboarding from here: the client is given, and the button names them.
    await button(page, 'New onboarding').click();
    const fromClient = page.getByRole('dialog');
    await shown(fromClient.getByText('Ada Lovelace (ada.lovelace@example.com)'));
    await shown(button(fromClient, 'Create draft for Ada Lovelace'));
    expect(await fromClient.getByRole('radio').count()).toBe(0);
    await check(page, 'new-onboarding-for-client');
    await page.keyboard.press('Escape');

    // From Onboardings nobody is chosen; search, pick, and the button names the recipient.
    await page.goto(`${service.publicUrl}/workspace/onboardings`);
    await button(page, 'New onboarding').click();
    const fresh = page.getByRole('dialog');
    await shown(fresh.getByRole('radio', { name: /Grace Hopper/ }));
    expect(await fresh.getByRole('radio', { checked: true }).count()).toBe(0);
    expect(await button(fresh, 'Create draft').isDisabled()).toBe(true);
    await field(fresh, 'Search clients by name, email or company').fill('grace');
    await fresh.getByRole('radio', { name: /Ada Lovelace/ }).waitFor({ state: 'detached', timeout: 10_000 });
    await fresh.getByRole('radio', { name: /Grace Hopper/ }).check();
    await check(page, 'new-onboarding-dialog');
    await button(fresh, 'Create draft for Grace Hopper').click();
    await shown(page.getByRole('heading', { name: 'Grace Hopper: Client onboarding pack' }));

    // Waiting on the client: the primary action is a reminder.
    await page.goto(`${service.publicUrl}/workspace/onboardings/${grace.onboardingId}`);
    await shown(button(page, 'Send a reminder'));
    expect(await button(page, 'Send a reminder').getAttribute('class')).toBe('button-primary');
  }, 60_000);
});
