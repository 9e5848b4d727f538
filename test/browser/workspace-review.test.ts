import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, openPage, screenshot, VIEWPORTS } from '../helpers/browser.ts';
import { apiRequest, createApiKey, createTemplate, type Template } from '../helpers/tenant.ts';
import { AGREEMENT_TEXT, sendForm, type FormTenant } from './form-service.ts';
import { FILES, heading, sign, submitForm, texts, toReview, uploadFiles, waitForSaved } from './form-page.ts';
import { answerCard, approveWithKeyboard, expectTimeline, rejectWithKeyboard } from './review-page.ts';
import { button, field, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { inPage, startWorkspaceService, type WorkspaceService } from './workspace-service.ts';
import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';

/**
 * The review loop in Chromium: a team (signed up in the workspace), a template and a sent
 * onboarding through the APIs; the client fills and submits the real client form; the
 * member opens /workspace/onboardings/<id>, rejects one answer with a reason (keyboard
 * only); the client sees the reason beside that field, the other answers read-only, fixes
 * only it and resubmits; the member sees the word diff between the versions and approves;
 * GET /api/v1/responses shows approved and the rejected earlier version with its reason;
 * the timeline shows each step; the member countersigns and downloads the file. The
 * rejection emails the client the reason and a link that opens the form at that answer;
 * the onboarding's page says it waits on the client, then that the changed answer waits
 * for review. The member chooses two answers and sends them back in one send (one email).
 * axe-core finds nothing at 390x844 and 1280x900 on the review panel, the send-back dialog
 * and the form in its review state.
 */

const OWNER = {
  team: 'Northwind Advisors',
  name: 'Rita Reviewer',
  email: 'rita.reviewer@example.com',
  password: 'a long reviewer passphrase 5521',
};
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

const reviewTemplate = () => ({
  name: 'Engagement intake',
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      fields: [
        { type: 'short_text', label: 'Full name', sort_order: 1, is_required: true },
        { type: 'short_text', label: 'Company', sort_order: 2, is_required: true },
      ],
    },
    {
      title: 'Documents',
      sort_order: 2,
      fields: [
        {
          type: 'file_upload',
          label: 'ID document',
          sort_order: 1,
          is_required: true,
          config: { accept: ['application/pdf', 'image/png'] },
        },
        {
          type: 'signature',
          label: 'Engagement letter',
          sort_order: 2,
          is_required: true,
          config: { agreement_text: AGREEMENT_TEXT, is_sample_text: false },
        },
      ],
    },
  ],
});

/** The changes-requested emails of an onboarding, oldest first (sealed at rest: read as the mailer does). */
async function changeEmails(onboardingId: string): Promise<string[]> {
  const { rows } = await service.context.pool.query<{ text: string }>(
    `select text from mail_outbox where onboarding_id = $1 and kind = 'notification' order by created_at, seq`,
    [onboardingId],
  );
  return (await openTextColumns(service.context.vault, rows, ['text'])).map((row) => row.text ?? '');
}

async function openClientForm(page: Page, link: string) {
  await page.goto(link);
  await heading(page, 'About you').first().waitFor({ timeout: TIMEOUT });
}

describe('review of answers in the browser', () => {
  it('rejects, the client fixes only that answer and resubmits, the member approves', async () => {
    const { page: member } = await openPage(browser, 'desktop');
    await member.goto(`${service.publicUrl}/`);
    const toSignUp = member.getByRole('link', { name: /create a team|create (an )?account|sign up/i });
    await shown(toSignUp.or(button(member, 'Create account')));
    if (!(await button(member, 'Create account').isVisible())) await toSignUp.first().click();
    await signUp(member, OWNER);
    const me = (await inPage(member, 'GET', '/workspace/v1/me')).body as { team: { id: string } };
    const key = await createApiKey(service, me.team.id);
    const template: Template = await createTemplate(service, me.team.id, reviewTemplate());
    const tenant = { ...key, teamId: me.team.id, template } as unknown as FormTenant;
    const sent = await sendForm(service, tenant);

    // The client fills and submits the real form.
    const { page: client } = await openPage(browser, 'mobile');
    await openClientForm(client, sent.link);
    await field(client, 'Full name').fill('Ada Lovelace');
    await field(client, 'Company').fill('Analytical Engines');
    await waitForSaved(client, text);
    await button(client, text.t('nav.next')).click();
    await heading(client, 'Documents').first().waitFor({ timeout: TIMEOUT });
    await uploadFiles(client, text, [FILES.pdf]);
    await sign(client, text, { name: 'Ada Lovelace', email: 'ada@example.com' });
    await toReview(client, text);
    await submitForm(client, text);

    // The member reviews on the onboarding's page, keyboard only for the rejection.
    const check = screens(member, 'workspace-review');
    await member.goto(`${service.publicUrl}/workspace/onboardings/${sent.onboardingId}`);
    await shown(member.getByRole('heading', { name: 'Answers' }));
    await shown(button(member, 'Reject Full name'));
    await check('review-panel');
    await rejectWithKeyboard(member, 'Full name', REASON, () => check('reject-dialog'));

    // The page says the onboarding waits on the client; the client is emailed the reason and
    // a link that opens the form at that answer, its field focused.
    await shown(member.getByText('Changes requested (waiting on the client)'));
    const [email] = await changeEmails(sent.onboardingId);
    expect(email).toContain(REASON);
    const link = /\S+\/f\/[0-9a-f]{64}\?field=\S+/.exec(email ?? '')?.[0];
    expect(link?.startsWith(`${service.publicUrl}/f/`)).toBe(true);

    // The client sees the reason beside that field; the other answers are read-only.
    await openClientForm(client, link!);
    await shown(client.getByText(`The team could not accept this answer: ${REASON}`));
    expect(await client.evaluate('document.activeElement && document.activeElement.id')).toBe(
      await field(client, 'Full name').getAttribute('id'),
    );
    expect(await field(client, 'Company').isDisabled()).toBe(true);
    expect(await field(client, 'Full name').isDisabled()).toBe(false);
    for (const viewport of ['mobile', 'desktop'] as const) {
      await client.setViewportSize(VIEWPORTS[viewport].viewport!);
      await screenshot(client, 'workspace-review', 'client-form-review-state', viewport);
      await expectNoAxeViolations(client, `client form in its review state (${viewport})`);
    }
    await client.setViewportSize(VIEWPORTS.mobile.viewport!);
    await field(client, 'Full name').fill('Ada King Lovelace');
    await waitForSaved(client, text);
    await button(client, text.t('nav.next')).click();
    await heading(client, 'Documents').first().waitFor({ timeout: TIMEOUT });
    await toReview(client, text);
    await submitForm(client, text);

    // The member sees the versions and the word diff, then approves.
    await member.reload();
    // The onboarding's review state (the list's one definition of waiting for review).
    await shown(member.locator('dd.review-state-awaiting_review', { hasText: 'Waiting for review' }));
    const fullName = answerCard(member, 'Full name');
    await shown(fullName.getByText('Changes from version 1 to version 2'));
    expect((await fullName.locator('ins').allInnerTexts()).join(' ')).toContain('King');
    await check('review-diff');
    await approveWithKeyboard(member, 'Full name');

    const responses = (
      await apiRequest(service, key.apiKey, 'GET', `/responses?onboarding_id=${sent.onboardingId}`)
    ).body.responses as Array<{
      field_id: string;
      value: unknown;
      status: string;
      rejection_reason: string | null;
    }>;
    const fullNameId = template.template_steps[0]!.template_fields.find(
      (one) => one.label === 'Full name',
    )!.id;
    expect(responses.filter((one) => one.field_id === fullNameId)).toMatchObject([
      { value: 'Ada Lovelace', status: 'rejected', rejection_reason: REASON },
      { value: 'Ada King Lovelace', status: 'approved', rejection_reason: null },
    ]);

    // Countersign, then the timeline shows each step.
    await button(member, 'Countersign Engagement letter').click();
    await shown(member.getByText('“Engagement letter” countersigned.'));
    await expectTimeline(member, [
      'Created',
      'Sent (send 1)',
      'Opened',
      'Submitted “About you”',
      'Completed',
      `Rejected “Full name”: ${REASON}`,
      'Resubmitted “About you” with the answers sent back',
      'Approved “Full name”',
      'Signed “Engagement letter”',
    ]);
    await check('timeline');

    // Each signature with its evidence: the invitee's email whatever was typed, the member's
    // countersignature, the IP address, the browser, the consent text and the answers' digest.
    await member.reload();
    const signatures = member.locator('section', {
      has: member.getByRole('heading', { name: 'Signatures', exact: true }),
    });
    await shown(signatures.getByText('Ada Lovelace (Client)'));
    await shown(signatures.getByText(`${OWNER.name} (Team member)`));
    const invitee = (await apiRequest(service, key.apiKey, 'GET', `/clients/${sent.clientId}`)).body.client
      .email;
    await shown(signatures.getByText(invitee, { exact: true }));
    expect(await signatures.getByText('ada@example.com', { exact: true }).count()).toBe(0);
    await shown(signatures.getByText(AGREEMENT_TEXT).first());
    expect(await signatures.locator('code').allInnerTexts()).toEqual([
      expect.stringMatching(/^[0-9a-f]{64}$/),
      expect.stringMatching(/^[0-9a-f]{64}$/),
    ]);
    await check('signature-evidence');

    // The file downloads as an attachment with its name.
    const [download] = await Promise.all([
      member.waitForEvent('download'),
      member.getByRole('link', { name: `Download ${FILES.pdf.name}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(FILES.pdf.name);
    await sendTwoBack(member, sent.onboardingId, check);
  }, 180_000);
});

/** The member chooses two answers and sends them back in one send: one more email with both reasons. */
async function sendTwoBack(member: Page, onboardingId: string, check: (screen: string) => Promise<void>) {
  await member.getByRole('checkbox', { name: 'Choose to send back Company' }).check();
  await member.getByRole('checkbox', { name: 'Choose to send back ID document' }).check();
  await button(member, 'Send back 2 chosen answers').click();
  const dialog = member.getByRole('dialog');
  await shown(dialog.getByRole('heading', { name: 'Send 2 answers back to the client' }));
  await dialog.getByLabel('Decision').first().selectOption('reject');
  await field(dialog, 'What the client should change in “Company”').fill('The registered company name');
  await field(dialog, 'What the client should change in “ID document”').fill('A scan that is not blurred');
  await check('send-back-dialog');
  await button(dialog, 'Send 2 answers back').click();
  await shown(member.getByText('2 answers sent back; the client was emailed once.'));
  await shown(member.getByText('Changes requested (waiting on the client)'));
  const emails = await changeEmails(onboardingId);
  expect(emails).toHaveLength(2);
  expect(emails[1]).toContain('The registered company name');
  expect(emails[1]).toContain('A scan that is not blurred');
  await member.goto(`${service.publicUrl}/workspace/onboardings`);
  await shown(member.getByText('Changes requested (waiting on the client)'));
}
