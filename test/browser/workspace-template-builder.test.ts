import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { focusedElement, launchBrowser, openPage } from '../helpers/browser.ts';
import { createGalleryTemplate, createTemplate, updateTeam } from '../helpers/tenant.ts';
import { button, field, openSection, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import {
  cardToggle,
  fieldCard,
  fieldOrder,
  focusedDescription,
  openCard,
  saveState,
  screensTall,
  stepCard,
} from './template-builder-page.ts';
import { inPage, startWorkspaceService, teamIdOf, type WorkspaceService } from './workspace-service.ts';

/**
 * The template builder in Chromium. A template of 3 steps and 12 fields opens as collapsed
 * cards, at most 2.5 screens tall at 1280x900 and at 390x844. One card opens at a time; a
 * label typed shows at once in the live preview beside the builder (behind a Preview toggle
 * on a phone); the save bar says whether everything is saved; another section's link asks
 * first, and staying keeps the edits. The palette adds an optional field after the open card
 * (by keyboard); a field is duplicated, moved by keyboard and by dragging, prefilled from the
 * client's email and translated. A save problem (the builder's own check, and the service's
 * 400 naming steps[i].fields[j]) opens its card, focuses the input with the message beside it
 * (aria-describedby) and is linked from a summary at the top. The gallery explains its copy
 * rule in words. A payment field holds only what Stripe charges and the save warns when the
 * plan or a missing Stripe account keeps the payment from being collected. Every screen and
 * dialog passes axe-core at both sizes.
 */

const OWNER = {
  team: 'Lindenhof Steuerberatung',
  name: 'Bea Builder',
  email: 'bea.builder@example.com',
  password: 'a long builder passphrase 7781',
};
const TEST = 'workspace-template-builder';

const text = (label: string, type = 'short_text') => ({ type, label, is_required: false });
const TWELVE_FIELDS = [
  {
    title: 'About you',
    fields: [
      { type: 'single_choice', label: 'You are', config: { options: ['Person', 'Business'] } },
      text('Full name'),
      text('Email', 'email'),
      text('Phone number', 'phone'),
    ],
  },
  {
    title: 'Documents',
    fields: [
      { type: 'file_upload', label: 'ID document', config: { accept: ['application/pdf'], max_files: 2 } },
      text('Reference'),
      text('Date of birth', 'date'),
      text('Notes', 'long_text'),
    ],
  },
  {
    title: 'Agreement',
    fields: [
      { type: 'paragraph', label: 'Before you sign', config: { text: 'Please read the terms.' } },
      text('Company name'),
      { type: 'checkbox', label: 'Consent', config: { statement: 'I agree to be contacted.' } },
      { type: 'signature', label: 'Signature', config: { agreement_text: 'I agree to the engagement.' } },
    ],
  },
].map((step, stepIndex) => ({
  ...step,
  sort_order: stepIndex,
  fields: step.fields.map((one, index) => ({ is_required: false, ...one, sort_order: index })),
}));

let service: WorkspaceService;
let browser: Browser;
let page: Page;
let teamId: string;

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const expanded = (page: Page, name: string) => cardToggle(page, name).getAttribute('aria-expanded');

describe('the template builder', () => {
  it('fits on a screen, previews unsaved edits, guards them, and links save problems to their fields', async () => {
    await createGalleryTemplate(service, {
      name: 'Engagement letter (gallery)',
      steps: [
        {
          title: 'Sign',
          sort_order: 0,
          fields: [
            {
              type: 'signature',
              label: 'Your signature',
              sort_order: 0,
              is_required: true,
              config: { agreement_text: 'Sample engagement text', is_sample_text: true },
            },
          ],
        },
      ],
    });
    ({ page } = await openPage(browser, 'desktop'));
    const at = screens(page, TEST);
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    teamId = await teamIdOf(page);
    const template = await createTemplate(service, teamId, { name: 'Client intake', steps: TWELVE_FIELDS });

    // 3 steps, 12 fields: collapsed cards, at most 2.5 screens tall at both sizes.
    await page.goto(`${service.publicUrl}/workspace/templates/${template.id}`);
    await shown(page.getByRole('heading', { level: 1, name: 'Template: Client intake' }));
    await shown(page.getByRole('heading', { level: 2, name: 'Step 3: Agreement' }));
    expect(await page.getByLabel('Label', { exact: true }).count()).toBe(0);
    expect(await saveState(page)).toBe('All changes saved');
    expect(await screensTall(page)).toBeLessThanOrEqual(2.5);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await screensTall(page)).toBeLessThanOrEqual(2.5);
    await page.setViewportSize({ width: 1280, height: 900 });
    await at('builder-collapsed');

    // One card open at a time; the live preview shows an unsaved label as it is typed.
    await openCard(page, 'Full name');
    const email = await openCard(page, 'Email');
    expect(await expanded(page, 'Full name')).toBe('false');
    const preview = page.getByRole('complementary', { name: 'Preview' });
    await field(email, 'Label').fill('Work email');
    await shown(preview.getByText('Work email'));
    expect(await saveState(page)).toBe('Unsaved changes');
    await field(fieldCard(page, 'Work email'), 'Prefill from the client record').selectOption({
      label: "The client's email",
    });

    // The palette, by keyboard: a Phone field after the open card, optional.
    const step1 = stepCard(page, 1);
    await step1.getByLabel('Type of the new field', { exact: true }).selectOption({ label: 'Phone' });
    await step1.getByLabel('Type of the new field', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect((await focusedElement(page))?.label).toBe('Add field');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focusedElement(page))?.label, { timeout: TIMEOUT }).toBe('Label');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Mobile');
    const mobile = fieldCard(page, 'Mobile');
    expect(await mobile.getByText('Optional', { exact: true }).count()).toBe(1);
    expect(await field(mobile, 'Required (the client must answer it)').isChecked()).toBe(false);
    expect(await expanded(page, 'Work email')).toBe('false');

    // Duplicate, then move by keyboard (focus stays on the button) and by dragging a handle.
    await button(mobile, 'Duplicate field Mobile').click();
    await shown(cardToggle(page, 'Copy of Mobile'));
    expect(await fieldOrder(step1)).toEqual([
      'You are (Single choice)',
      'Full name (Short text)',
      'Work email (Email)',
      'Mobile (Phone)',
      'Copy of Mobile (Phone)',
      'Phone number (Phone)',
    ]);
    await button(page, 'Move up: Copy of Mobile').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => fieldOrder(step1), { timeout: TIMEOUT }).toContain('Copy of Mobile (Phone)');
    expect((await fieldOrder(step1))[3]).toBe('Copy of Mobile (Phone)');
    expect((await focusedElement(page))?.label).toBe('Move up: Copy of Mobile');
    const step2 = stepCard(page, 2);
    const transfer = await page.evaluateHandle('new DataTransfer()');
    const handle = fieldCard(page, 'Reference').getByTitle('Drag to reorder (or use Move up and Move down)');
    await handle.dispatchEvent('dragstart', { dataTransfer: transfer });
    await fieldCard(page, 'ID document').dispatchEvent('drop', { dataTransfer: transfer });
    await expect
      .poll(async () => (await fieldOrder(step2)).slice(0, 2), { timeout: TIMEOUT })
      .toEqual(['Reference (Short text)', 'ID document (File upload)']);

    // Another section's link asks first; staying keeps the edits and the bar says so.
    await openSection(page, 'Clients');
    const leave = page.getByRole('dialog');
    await shown(leave.getByText('Your changes to this template are not saved'));
    await at('leave-dialog');
    await button(leave, 'Stay and keep editing').click();
    expect(page.url()).toContain(`/workspace/templates/${template.id}`);
    await shown(cardToggle(page, 'Work email'));
    await shown(preview.getByText('Work email'));
    expect(await saveState(page)).toBe('Unsaved changes');

    // A save problem of the builder's own: its card opens, the input has focus and the message, a summary links it.
    await openCard(page, 'Copy of Mobile');
    await field(fieldCard(page, 'Copy of Mobile'), 'Label').fill('');
    await openCard(page, 'Full name');
    await button(page, 'Save template').click();
    const summary = page.getByRole('alert').filter({ hasText: 'problem needs fixing' });
    await shown(summary.getByRole('link', { name: 'Phone: Give the field a label.' }));
    await expect.poll(async () => (await focusedElement(page))?.label, { timeout: TIMEOUT }).toBe('Label');
    const described = await focusedDescription(page);
    expect(described).toBe('Give the field a label.');
    expect(await expanded(page, 'Full name')).toBe('false');
    await at('builder-problem');
    await page.keyboard.type('Second mobile');

    // The service's refusal names steps[1].fields[1] (ID document, after the drag): its card opens.
    await page.route('**/workspace/v1/templates/*', async (route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      await route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'invalid_body',
          message: 'steps[1].fields[1]: config.max_files must be at most 10',
        }),
      });
    });
    await openCard(page, 'Full name');
    await button(page, 'Save template').click();
    await shown(page.getByRole('link', { name: 'ID document: Max files must be at most 10.' }));
    await expect.poll(() => expanded(page, 'ID document'), { timeout: TIMEOUT }).toBe('true');
    expect(await page.evaluate<string>('document.activeElement.id')).toMatch(/-label$/);
    await page.unroute('**/workspace/v1/templates/*');

    // Saved: the bar says so; new fields are optional, the email prefills from the client.
    await button(page, 'Save template').click();
    await shown(page.getByText('Template saved (version 2).', { exact: false }));
    expect(await saveState(page)).toBe('All changes saved');
    const saved = await inPage(page, 'GET', `/workspace/v1/templates/${template.id}`);
    const fields = (
      saved.body as {
        template: { steps: { fields: { label: string; is_required: boolean; config: object }[] }[] };
      }
    ).template.steps[0]!.fields;
    expect(fields.find((one) => one.label === 'Work email')?.config).toEqual({ prefill: 'client_email' });
    expect(fields.find((one) => one.label === 'Mobile')?.is_required).toBe(false);

    // A phone: the preview behind its toggle.
    await page.setViewportSize({ width: 390, height: 844 });
    await button(page, 'Preview').click();
    await shown(preview.getByText('Work email'));
    await at('builder-preview');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The gallery says its copy rule in words, not an API code.
    await openSection(page, 'Templates');
    await button(page, 'Start from the gallery').click();
    const gallery = page.getByRole('dialog');
    await shown(gallery.getByText('Holds sample agreement text', { exact: false }));
    expect(await gallery.textContent()).not.toContain('gallery_template_copy_required');
    await shown(gallery.getByText('cannot be sent as it is', { exact: false }));
    await at('gallery-dialog');
    await button(gallery, 'Close').click();
  }, 120_000);

  it('keeps a payment to what Stripe charges and warns at save', async () => {
    // A template of the operator API in a currency Stripe does not charge in: the builder says so at save.
    const template = await createTemplate(service, teamId, {
      name: 'Bookkeeping',
      steps: [
        {
          title: 'Pay',
          sort_order: 0,
          fields: [
            {
              type: 'payment',
              label: 'Retainer fee',
              sort_order: 0,
              is_required: true,
              config: { amount_cents: 5000, currency: 'XYZ' },
            },
          ],
        },
      ],
    });
    await page.goto(`${service.publicUrl}/workspace/templates/${template.id}`);
    await shown(page.getByRole('heading', { level: 1, name: 'Template: Bookkeeping' }));
    const save = button(page, 'Save template');
    await save.click();
    const fee = fieldCard(page, 'Retainer fee');
    await shown(fee.getByText('Stripe cannot charge in XYZ.'));

    // Euro: below Stripe's minimum and above its largest charge, each in words beside the field.
    await field(fee, 'Currency').selectOption('EUR');
    await field(fee, 'Amount (EUR)').fill('0.49');
    await save.click();
    await shown(fee.getByText('The smallest amount Stripe charges in EUR is 0.50.'));
    await field(fee, 'Amount (EUR)').fill('1000000');
    await shown(fee.getByText('Enter an amount from 0.50 to 999,999.99 EUR.'));
    await field(fee, 'Amount (EUR)').fill('150');
    await field(fee, 'How often').selectOption({ label: 'Every month' });
    await field(fee, 'What the payment is for').fill('Monthly bookkeeping');
    await button(page, 'Details').click();
    await field(page, 'Translate into').selectOption({ label: 'Deutsch' });
    await openCard(page, 'Retainer fee');
    await field(fee, 'What the payment is for in Deutsch').fill('Monatliche Buchhaltung');

    // Saved on the trial plan: the plan cannot collect payments, said beside the saved message.
    await save.click();
    await shown(page.getByText('Template saved (version 2).', { exact: false }));
    await shown(page.getByText('Your plan (Pro trial) cannot collect payments', { exact: false }));

    // On a plan that collects payments but without a Stripe account: connect first.
    await updateTeam(service, teamId, { plan: 'pro' });
    await save.click();
    await shown(page.getByText('Connect Stripe in Settings > Payments before sending this form.'));
    const saved = await inPage(page, 'GET', `/workspace/v1/templates/${template.id}`);
    const savedFee = (saved.body as { template: { steps: { fields: Record<string, unknown>[] }[] } }).template
      .steps[0]!.fields[0]!;
    expect(savedFee.config).toEqual({
      amount_cents: 15000,
      currency: 'EUR',
      interval: 'month',
      description: 'Monthly bookkeeping',
    });
    expect(savedFee.translations).toEqual({ 'de-DE': { description: 'Monatliche Buchhaltung' } });
  }, 60_000);
});
