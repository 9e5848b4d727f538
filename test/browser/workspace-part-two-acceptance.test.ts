import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../../shared/projections/rebuild.ts';
import { allProjections } from '../../services/app/projections.ts';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { formLink } from '../helpers/client-link.ts';
import { readModelRows } from '../helpers/read-models.ts';
import { adminRequest, apiRequest, createApiKey, updateTeam } from '../helpers/tenant.ts';
import { AGREEMENT_TEXT } from './form-service.ts';
import {
  FILES,
  expectStep,
  nextTo,
  sign,
  submitForm,
  texts,
  toReview,
  uploadFiles,
  waitForSaved,
} from './form-page.ts';
import { answerCard, approveWithKeyboard, expectTimeline, rejectWithKeyboard } from './review-page.ts';
import { addField, fieldCard, openCard, openPreview, stepCard } from './template-builder-page.ts';
import {
  button,
  field,
  openSection,
  screens,
  shown,
  signIn,
  signOut,
  signUp,
  TIMEOUT,
} from './workspace-page.ts';
import { startWorkspaceService, teamIdOf, type WorkspaceService } from './workspace-service.ts';

/**
 * The acceptance of the team workspace's second part as one journey in Chromium at
 * 390x844 (every screen also checked at 1280x900 with axe-core): a member signs up, signs
 * out and in again, and builds a template of three steps (a conditional field, a file field, a signature whose
 * sample text is replaced, a German translation), previews it in English and German;
 * adds a client, creates and sends an onboarding; the client completes the real form;
 * the member rejects one answer with a reason (keyboard only); the client fixes only that
 * answer and resubmits; the member sees the diff and approves; GET /api/v1/responses keeps
 * the rejected version with its reason; the timeline shows each step; a reopen of the
 * completed onboarding counts once more against a capped monthly limit and at the limit
 * is refused in words; a rebuild of the read models equals the live tables.
 */

const TEST = 'workspace-part-two-acceptance';
const MEMBER = {
  team: 'Lindenhof Steuerberatung',
  name: 'Mia Member',
  email: 'mia.member@example.com',
  password: 'a long acceptance passphrase 3390',
};
const CLIENT = { name: 'Ada Lovelace', email: 'ada.lovelace@example.com' };
const REASON = 'Please write your full legal name';
const text = texts('en-US');

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

const status = (page: Page, message: string) => shown(page.getByRole('status').getByText(message));

/** Step 1: three steps, a conditional field, a file field, the signature text replaced, German. */
/** Opens a collapsed card by its toggle (when closed). */
async function openToggle(toggle: Locator) {
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-expanded'), { timeout: TIMEOUT }).toBe('true');
}

async function buildTemplate(page: Page, at: (screen: string) => Promise<void>) {
  await openSection(page, 'Templates');
  await shown(page.getByText('No templates yet.'));
  await at('templates-empty');
  await button(page, 'New template').click();
  const dialog = page.getByRole('dialog');
  await field(dialog, 'Template name').fill('Client intake');
  await button(dialog, 'Create and open the builder').click();
  await shown(page.getByRole('heading', { level: 1, name: 'Template: Client intake' }));

  // The builder's cards are collapsed, one open at a time: a step's settings open from its heading.
  const step1 = stepCard(page, 1);
  await openToggle(step1.getByRole('heading', { level: 2 }).getByRole('button'));
  await step1.getByLabel('Step title', { exact: true }).fill('About you');
  await addField(step1, 'Single choice', 'You are');
  const choice = fieldCard(page, 'You are');
  await field(choice, 'Option 1').fill('Person');
  await field(choice, 'Option 2').fill('Business');
  await addField(step1, 'Short text', 'Company name');
  const company = fieldCard(page, 'Company name');
  await field(company, 'Show').selectOption({ label: 'Only when another answer matches' });
  await field(company, 'Answer of').selectOption({ label: 'About you: You are' });
  await field(company, 'Condition').selectOption({ label: 'equals' });
  await field(company, 'Value').selectOption({ label: 'Business' });
  await addField(step1, 'Short text', 'Full name');

  await button(page, 'Add step').click();
  const step2 = stepCard(page, 2);
  await step2.getByLabel('Step title', { exact: true }).fill('Documents');
  await addField(step2, 'File upload', 'ID document');

  await button(page, 'Add step').click();
  const step3 = stepCard(page, 3);
  await step3.getByLabel('Step title', { exact: true }).fill('Agreement');
  await addField(step3, 'Signature', 'Signature');
  await shown(page.getByText('Sends are blocked.'));
  await at('builder-sample-text');
  await fieldCard(page, 'Signature').getByLabel('Agreement text', { exact: true }).fill(AGREEMENT_TEXT);
  await expect.poll(() => page.getByText('Sends are blocked.').count(), { timeout: TIMEOUT }).toBe(0);

  await openToggle(button(page, 'Details'));
  await field(page, 'Translate into').selectOption({ label: 'Deutsch' });
  await field(page, 'Template name in Deutsch').fill('Kundenaufnahme');
  await openToggle(step1.getByRole('heading', { level: 2 }).getByRole('button'));
  await step1.getByLabel('Step title in Deutsch', { exact: true }).fill('Über Sie');
  // Field cards are collapsed but one: each is opened before its translations are typed.
  await openCard(page, 'You are');
  await field(choice, 'Label in Deutsch').fill('Sie sind');
  await field(choice, 'Business in Deutsch').fill('Unternehmen');
  await openCard(page, 'Company name');
  await field(company, 'Label in Deutsch').fill('Firmenname');
  await openCard(page, 'Full name');
  await field(fieldCard(page, 'Full name'), 'Label in Deutsch').fill('Vollständiger Name');
  await at('builder-translated');

  await button(page, 'Save template').click();
  await shown(page.getByText('Template saved (version 2).', { exact: false }));
  await at('builder-saved');
}

/** Step 1: the preview is the real client form; the conditional field follows the answer. */
async function preview(page: Page) {
  // On a phone the builder's preview, with its link to the real form, waits behind its toggle.
  await openToggle(button(page, 'Preview'));
  const tab = await openPreview(page);
  await shown(tab.getByRole('radio', { name: 'Person' }));
  expect(await tab.getByLabel(/Company name/).count()).toBe(0);
  await tab.getByRole('radio', { name: 'Business' }).check();
  await shown(tab.getByLabel(/Company name/));
  await waitForSaved(tab, text);
  await screens(tab, TEST)('preview');
  await tab.getByLabel('Preview language').selectOption({ label: 'Deutsch' });
  await shown(tab.getByText('Kundenaufnahme'));
  await shown(tab.getByText('Über Sie'));
  await tab.getByRole('radio', { name: 'Unternehmen' }).check();
  await shown(tab.getByLabel(/Firmenname/));
  await shown(tab.getByLabel(/Vollständiger Name/));
  await screens(tab, TEST)('preview-de');
  await tab.close();
}

/** Step 2: a client added in Clients, an onboarding created and sent in Onboardings. */
async function createAndSend(page: Page, at: (screen: string) => Promise<void>): Promise<string> {
  const dialog = page.getByRole('dialog');
  await openSection(page, 'Clients');
  await shown(page.getByText('No clients yet.'));
  await button(page, 'Add a client').click();
  await dialog.getByLabel('Name', { exact: true }).fill(CLIENT.name);
  await dialog.getByLabel('Email', { exact: true }).fill(CLIENT.email);
  await at('add-client-dialog');
  await button(dialog, 'Add client').click();
  await status(page, `${CLIENT.name} was added.`);
  await at('clients');

  await openSection(page, 'Onboardings');
  await shown(page.getByText('0 of 2 onboardings this month'));
  await button(page, 'New onboarding').click();
  await dialog.getByRole('radio', { name: `${CLIENT.name} (${CLIENT.email})` }).check();
  await dialog.getByLabel('Template', { exact: true }).selectOption({ label: 'Client intake' });
  await at('new-onboarding-dialog');
  await button(dialog, `Create draft for ${CLIENT.name}`).click();
  await shown(page.getByRole('heading', { level: 1, name: `${CLIENT.name}: Client intake` }));
  const onboardingId = page.url().split('/').at(-1)!;
  await button(page, 'Send').click();
  await shown(dialog.getByLabel('PIN (optional)'));
  await at('send-dialog');
  await button(dialog, 'Send').click();
  await status(page, 'Sent. The invite email is on its way.');
  await at('onboarding-sent');
  return onboardingId;
}

/** The client link the invite email carries, as the operator reads it. */
async function clientLink(onboardingId: string): Promise<string> {
  const answer = await adminRequest(service, 'GET', `/onboardings/${onboardingId}/link`);
  expect(answer.status).toBe(200);
  return formLink(service.publicUrl, answer.body.token as string);
}

/** Step 3: the client completes the form: the conditional answer, a file, a signature. */
async function completeForm(client: Page, link: string) {
  const at = screens(client, TEST);
  await client.goto(link);
  await expectStep(client, 'About you');
  expect(await client.getByLabel(/Company name/).count()).toBe(0);
  await client.getByRole('radio', { name: 'Business' }).check();
  await shown(client.getByLabel(/Company name/));
  await client.getByLabel(/Company name/).fill('Analytical Engines');
  await client.getByLabel(/Full name/).fill('Ada Lovelace');
  await waitForSaved(client, text);
  await at('client-step-1');
  await nextTo(client, text, 'Documents');
  await uploadFiles(client, text, [FILES.pdf]);
  await at('client-step-2');
  await nextTo(client, text, 'Agreement');
  await sign(client, text, { name: CLIENT.name, email: CLIENT.email });
  await at('client-step-3');
  await toReview(client, text);
  await at('client-review');
  await submitForm(client, text);
}

/** Step 4, the client's part: the reason beside the field; only that answer changes. */
async function fixRejectedAnswer(client: Page, link: string) {
  await client.goto(link);
  await expectStep(client, 'About you');
  await shown(client.getByText(`The team could not accept this answer: ${REASON}`));
  expect(await client.getByLabel(/Company name/).isDisabled()).toBe(true);
  expect(await client.getByLabel(/Full name/).isDisabled()).toBe(false);
  await screens(client, TEST)('client-sent-back');
  await client.getByLabel(/Full name/).fill('Ada King Lovelace');
  await waitForSaved(client, text);
  await nextTo(client, text, 'Documents');
  await nextTo(client, text, 'Agreement');
  await toReview(client, text);
  await submitForm(client, text);
}

describe('the team workspace, part two: acceptance', () => {
  it('builds, previews, sends, reviews with a rejection and a fix, counts a reopen, rebuilds', async () => {
    const { page } = await openPage(browser, 'mobile');
    const at = screens(page, TEST);
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, MEMBER);
    await signOut(page);
    await signIn(page, MEMBER.email, MEMBER.password);
    const teamId = await teamIdOf(page);
    // The plan's monthly limit is the operator's to set: two onboardings a month.
    await updateTeam(service, teamId, { monthly_onboarding_limit: 2 } as never);

    await buildTemplate(page, at);
    await preview(page);
    const onboardingId = await createAndSend(page, at);
    const link = await clientLink(onboardingId);

    const { page: client } = await openPage(browser, 'mobile');
    await completeForm(client, link);

    // Step 4: the member rejects one answer with a reason, keyboard only.
    await page.reload();
    await shown(page.getByRole('heading', { name: 'Answers' }));
    await shown(button(page, 'Reject Full name'));
    await at('review-panel');
    await rejectWithKeyboard(page, 'Full name', REASON, () => at('reject-dialog'));
    await fixRejectedAnswer(client, link);
    await page.reload();
    const fullName = answerCard(page, 'Full name');
    await shown(fullName.getByText('Changes from version 1 to version 2'));
    expect((await fullName.locator('ins').allInnerTexts()).join(' ')).toContain('King');
    await at('review-diff');
    await approveWithKeyboard(page, 'Full name');

    // Step 5: the public API keeps the rejected version with its reason beside the approved one.
    const { apiKey } = await createApiKey(service, teamId);
    const listed = await apiRequest(service, apiKey, 'GET', `/responses?onboarding_id=${onboardingId}`);
    expect(listed.status).toBe(200);
    const responses = listed.body.responses as Array<{
      field_id: string;
      value: unknown;
      status: string;
      rejection_reason: string | null;
    }>;
    const names = responses.filter(
      (one) => one.value === 'Ada Lovelace' || one.value === 'Ada King Lovelace',
    );
    expect(names).toMatchObject([
      { value: 'Ada Lovelace', status: 'rejected', rejection_reason: REASON },
      { value: 'Ada King Lovelace', status: 'approved', rejection_reason: null },
    ]);
    expect(names[0]!.field_id).toBe(names[1]!.field_id);

    // Step 6: the timeline shows each step, the resubmission as a second submission.
    await expectTimeline(page, [
      'Created',
      'Sent (send 1)',
      'Opened',
      'Submitted “About you”',
      'Submitted “Documents”',
      'Submitted “Agreement”',
      'Uploaded a file to “ID document”',
      'Signed “Signature”',
      'Completed',
      `Rejected “Full name”: ${REASON}`,
      'Approved “Full name”',
    ]);
    const timeline = page.locator('ol.timeline');
    await expect
      .poll(() => timeline.getByText('Submitted “About you”').count(), { timeout: TIMEOUT })
      .toBe(2);
    await at('timeline');

    // Step 7: reopening the completed onboarding counts once more; at the limit it is refused.
    const dialog = page.getByRole('dialog');
    const openOnboarding = async () => {
      await page
        .getByRole('link', { name: new RegExp(CLIENT.name) })
        .first()
        .click();
      await shown(page.getByRole('heading', { level: 1, name: `${CLIENT.name}: Client intake` }));
    };
    await page.getByRole('link', { name: 'All onboardings' }).click();
    await shown(page.getByText('1 of 2 onboardings this month'));
    await openOnboarding();
    await shown(page.getByText('Completed', { exact: true }));
    await button(page, 'Reopen').click();
    await shown(dialog.getByText(/counts once more against your monthly limit/));
    await at('reopen-dialog');
    await button(dialog, 'Reopen and send').click();
    await status(page, 'Reopened. A new link is on its way to the client.');
    await page.getByRole('link', { name: 'All onboardings' }).click();
    await shown(page.getByText('2 of 2 onboardings this month'));
    await at('onboardings-usage');
    await openOnboarding();
    await button(page, 'Cancel onboarding').click();
    await button(dialog, 'Cancel onboarding').click();
    await status(page, 'The onboarding was cancelled.');
    await button(page, 'Reopen').click();
    await button(dialog, 'Reopen and send').click();
    await shown(page.getByRole('alert').getByText(/Monthly onboarding limit reached/));
    await shown(page.getByText('Cancelled', { exact: true }));
    await at('reopen-refused');

    // Step 8: a rebuild of the read models equals the live tables.
    expect((await adminRequest(service, 'POST', '/work/drain')).status).toBeLessThan(300);
    const live = await readModelRows(service.database.pool);
    expect(live['responses']!.some((row) => row.includes('"rejected"'))).toBe(true);
    await rebuildProjections(service.database.pool, service.context.eventStore, allProjections, () => {});
    expect(await readModelRows(service.database.pool)).toEqual(live);
  }, 300_000);
});
