import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { adminRequest, createApiKey, createTemplate, request, type Template } from '../helpers/tenant.ts';
import { fieldId, sendForm, type FormTenant } from './form-service.ts';
import { heading, submitForm, texts, toReview, waitForSaved } from './form-page.ts';
import { button, field, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { inPage, startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/**
 * A reopen that cannot get stuck (decision 0077) in Chromium: the client's answers are all
 * approved; the member opens Reopen on the onboarding's page, sees the approved answers to
 * choose from, is told in words that nothing could change without one, unlocks Full name
 * with a reason; the reopen email carries the reason; the client opens the new link, changes
 * Full name (Company stays read-only, approved), submits and the onboarding completes (not
 * stuck at 100 %). axe-core finds nothing at 390x844 and 1280x900 on the dialog, its refusal
 * and the reopened form's locked step.
 */

const OWNER = {
  team: 'Northwind Advisors',
  name: 'Remy Reopener',
  email: 'remy.reopener@example.com',
  password: 'a long reopener passphrase 7731',
};
const REASON = 'Your full name is missing a part';
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

const twoStepTemplate = () => ({
  name: 'Engagement intake',
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      fields: [{ type: 'short_text', label: 'Full name', sort_order: 1, is_required: true }],
    },
    {
      title: 'Your company',
      sort_order: 2,
      fields: [{ type: 'short_text', label: 'Company', sort_order: 1, is_required: true }],
    },
  ],
});

/** The client answers and submits both steps through the portal API. */
async function completeThroughApi(token: string, template: Template) {
  const portal = (method: string, path: string, body?: unknown) =>
    request(service, method, `/portal/v1/onboardings/${token}${path}`, { body });
  const answers = { 'Full name': 'Ada Lovelace', Company: 'Analytical Engines' };
  for (const [label, value] of Object.entries(answers)) {
    expect((await portal('PUT', `/answers/${fieldId(template, label)}`, { value })).status).toBe(200);
  }
  for (const step of template.template_steps) {
    expect((await portal('POST', `/steps/${step.id}/submit`)).status).toBe(200);
  }
}

async function signUpInWorkspace(member: Page) {
  await member.goto(`${service.publicUrl}/`);
  const toSignUp = member.getByRole('link', { name: /create a team|create (an )?account|sign up/i });
  await shown(toSignUp.or(button(member, 'Create account')));
  if (!(await button(member, 'Create account').isVisible())) await toSignUp.first().click();
  await signUp(member, OWNER);
}

describe('reopen in the browser', () => {
  it('asks which approved answers to unlock, refuses in words without one, and the client finishes the reopened form', async () => {
    const { page: member } = await openPage(browser, 'desktop');
    await signUpInWorkspace(member);
    const me = (await inPage(member, 'GET', '/workspace/v1/me')).body as {
      team: { id: string };
      csrf_token: string;
    };
    const key = await createApiKey(service, me.team.id);
    const template: Template = await createTemplate(service, me.team.id, twoStepTemplate());
    const tenant = { ...key, teamId: me.team.id, template } as unknown as FormTenant;
    const sent = await sendForm(service, tenant);
    await completeThroughApi(sent.token, template);
    const onboardingPath = `/workspace/v1/onboardings/${sent.onboardingId}`;
    for (const label of ['Full name', 'Company']) {
      const approved = await inPage(
        member,
        'POST',
        `${onboardingPath}/answers/${fieldId(template, label)}/review`,
        {
          body: { decision: 'approve' },
          headers: { 'x-csrf-token': me.csrf_token },
        },
      );
      expect(approved.status).toBe(200);
    }

    // The dialog offers the approved answers; without one it says nothing could change.
    const check = screens(member, 'workspace-reopen');
    await member.goto(`${service.publicUrl}/workspace/onboardings/${sent.onboardingId}`);
    await shown(member.getByText('Completed', { exact: true }));
    await button(member, 'Reopen').click();
    const dialog = member.getByRole('dialog');
    await shown(
      dialog.getByText('Every answer is approved. Choose the approved answers the client may change again.'),
    );
    await shown(dialog.getByRole('checkbox', { name: 'Full name' }));
    await shown(dialog.getByRole('checkbox', { name: 'Company' }));
    await check('reopen-dialog');
    await button(dialog, 'Reopen and send').click();
    await shown(dialog.getByRole('alert').getByText(/so the client could change nothing/));
    await check('reopen-refused');

    // Unlock Full name (keyboard) with a reason: sent again, the email says why.
    await dialog.getByRole('checkbox', { name: 'Full name' }).focus();
    await member.keyboard.press('Space');
    await field(dialog, 'Reason for the client (optional)').fill(REASON);
    await button(dialog, 'Reopen and send').click();
    await shown(member.getByText('Reopened. A new link is on its way to the client.'));
    const emails = (await adminRequest(service, 'GET', `/teams/${me.team.id}/emails`)).body.emails as {
      kind: string;
      onboarding_id: string;
      text: string;
    }[];
    const ofOnboarding = emails.filter((email) => email.onboarding_id === sent.onboardingId);
    expect(ofOnboarding).toHaveLength(2);
    const reopenEmail = ofOnboarding.find((email) => !email.text.includes(sent.link))!;
    expect(reopenEmail.text).toContain(REASON);
    const link = new RegExp(`\\S+/f/[0-9a-f]{64}`).exec(reopenEmail.text)?.[0];
    expect(link?.startsWith(`${service.publicUrl}/f/`)).toBe(true);

    // The client changes the unlocked answer; the approved one stays read-only; Submit completes.
    const { page: client } = await openPage(browser, 'mobile');
    const form = screens(client, 'workspace-reopen-client');
    await client.goto(link!);
    await shown(heading(client, /About you|Review your answers/));
    if (await heading(client, text.t('review.title')).isVisible()) {
      await client.getByRole('button', { name: text.t('nav.editStep', { step: 'About you' }) }).click();
    }
    await shown(field(client, 'Full name'));
    expect(await field(client, 'Full name').isEditable()).toBe(true);
    await field(client, 'Full name').fill('Augusta Ada King');
    await waitForSaved(client, text);
    await button(client, text.t('nav.next')).click();
    await heading(client, 'Your company').first().waitFor({ timeout: TIMEOUT });
    expect(await field(client, 'Company').isEditable()).toBe(false);
    await form('reopened-locked-step');
    await toReview(client, text);
    await submitForm(client, text);

    const finished = await inPage(member, 'GET', onboardingPath);
    expect((finished.body as { onboarding: unknown }).onboarding).toMatchObject({
      status: 'completed',
      progress_pct: 100,
    });
    await member.reload();
    await shown(member.getByText('Completed', { exact: true }));
  }, 180_000);
});
