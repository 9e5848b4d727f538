import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { focusedElement, launchBrowser, openPage, openTab } from '../helpers/browser.ts';
import {
  apiRequest,
  createApiKey,
  createGalleryTemplate,
  createTemplate,
  updateTeam,
} from '../helpers/tenant.ts';
import { button, field, openSection, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { addField, fieldCard, fieldOrder, openPreview, stepCard } from './template-builder-page.ts';
import { inPage, startWorkspaceService, teamIdOf, type WorkspaceService } from './workspace-service.ts';

/**
 * The template builder in Chromium: a member builds a template of three steps (a choice,
 * a text field shown only when the choice equals Business, a file field, a signature
 * whose sample agreement text is replaced) with a German translation; moves one field
 * with the keyboard and one by dragging; saves; previews it in the real client form (the
 * conditional field appears only after the answer) in English and in German; starts
 * another from the gallery by copying it; duplicates and deletes; sees the unsaved-changes
 * warning and a concurrent save refused in words. A payment field holds only what Stripe
 * charges: a currency it charges in and an amount within its limits, refused in words
 * otherwise; its description is translated; the save warns when the plan or a missing Stripe
 * account keeps the payment from being collected. Every screen and dialog passes axe-core
 * at 390x844 and 1280x900.
 */

const OWNER = {
  team: 'Lindenhof Steuerberatung',
  name: 'Bea Builder',
  email: 'bea.builder@example.com',
  password: 'a long builder passphrase 7781',
};
const TEST = 'workspace-template-builder';

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

describe('the template builder', () => {
  it('builds, reorders, translates, previews, copies from the gallery, duplicates and deletes', async () => {
    const gallery = await createGalleryTemplate(service, {
      name: 'Engagement letter (gallery)',
      description: 'A signed engagement letter',
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
    const { page, context } = await openPage(browser, 'desktop');
    const at = screens(page, TEST);
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);

    // The list, and a new template.
    await openSection(page, 'Templates');
    await shown(page.getByText('No templates yet.'));
    await at('templates-empty');
    await button(page, 'New template').click();
    const dialog = page.getByRole('dialog');
    await shown(field(dialog, 'Template name'));
    await at('new-template-dialog');
    await field(dialog, 'Template name').fill('Client intake');
    await button(dialog, 'Create and open the builder').click();
    await shown(page.getByRole('heading', { level: 1, name: 'Template: Client intake' }));
    await at('builder-new');

    // Step 1: a choice, a field shown only for businesses, an email field.
    const step1 = stepCard(page, 1);
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
    await addField(step1, 'Email', 'Email');

    // Step 2: a file field and a reference; step 3: a signature with the sample text.
    await button(page, 'Add step').click();
    const step2 = stepCard(page, 2);
    await step2.getByLabel('Step title', { exact: true }).fill('Documents');
    await addField(step2, 'File upload', 'ID document');
    const idDocument = fieldCard(page, 'ID document');
    await shown(idDocument.getByLabel('PDF', { exact: true }));
    expect(await idDocument.getByLabel('PDF', { exact: true }).isChecked()).toBe(true);
    await addField(step2, 'Short text', 'Reference');
    await button(page, 'Add step').click();
    const step3 = stepCard(page, 3);
    await step3.getByLabel('Step title', { exact: true }).fill('Agreement');
    await addField(step3, 'Signature', 'Signature');
    await shown(page.getByText('Sends are blocked.'));
    await shown(page.getByText("This is the builder's sample agreement text."));
    await at('builder-sample-text');
    await fieldCard(page, 'Signature')
      .getByLabel('Agreement text', { exact: true })
      .fill('I agree to the engagement terms of Lindenhof Steuerberatung.');
    await expect.poll(() => page.getByText('Sends are blocked.').count(), { timeout: TIMEOUT }).toBe(0);

    // Keyboard only: Tab from the type to Add field, Enter, and type the new field's title.
    await step3.getByLabel('Type of the new field', { exact: true }).selectOption({ label: 'Paragraph' });
    await step3.getByLabel('Type of the new field', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect((await focusedElement(page))?.label).toBe('Add field');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focusedElement(page))?.label, { timeout: TIMEOUT }).toBe('Title');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Please read before signing');
    await shown(page.getByRole('heading', { level: 3, name: 'Please read before signing (Paragraph)' }));

    // A German translation.
    await field(page, 'Translate into').selectOption({ label: 'Deutsch' });
    await field(page, 'Template name in Deutsch').fill('Kundenaufnahme');
    await step1.getByLabel('Step title in Deutsch', { exact: true }).fill('Über Sie');
    await field(choice, 'Label in Deutsch').fill('Sie sind');
    await field(company, 'Label in Deutsch').fill('Firmenname');
    await field(choice, 'Business in Deutsch').fill('Unternehmen');
    await at('builder-translated');

    // Keyboard: Email moves up; focus stays on its button; the move is announced.
    expect(await fieldOrder(step1)).toEqual([
      'You are (Single choice)',
      'Company name (Short text)',
      'Email (Email)',
    ]);
    await button(page, 'Move up: Email').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => fieldOrder(step1), { timeout: TIMEOUT })
      .toEqual(['You are (Single choice)', 'Email (Email)', 'Company name (Short text)']);
    await shown(page.getByText('Email moved to position 2 of 3 in About you.'));
    expect((await focusedElement(page))?.label).toBe('Move up: Email');

    // Drag: Reference's handle dropped on ID document (the HTML drag and drop events, with one DataTransfer).
    // The function runs in the page, where DataTransfer exists (the test's own types have no DOM).
    const transfer = await page.evaluateHandle('new DataTransfer()');
    const handle = fieldCard(page, 'Reference').getByTitle('Drag to reorder (or use Move up and Move down)');
    await handle.dispatchEvent('dragstart', { dataTransfer: transfer });
    await fieldCard(page, 'ID document').dispatchEvent('dragover', { dataTransfer: transfer });
    await fieldCard(page, 'ID document').dispatchEvent('drop', { dataTransfer: transfer });
    await handle.dispatchEvent('dragend', { dataTransfer: transfer });
    await expect
      .poll(() => fieldOrder(step2), { timeout: TIMEOUT })
      .toEqual(['Reference (Short text)', 'ID document (File upload)']);

    // Save with the keyboard.
    await shown(page.getByText('You have unsaved changes.'));
    await button(page, 'Save template').focus();
    await page.keyboard.press('Enter');
    await shown(page.getByText('Template saved (version 2).', { exact: false }));
    await at('builder-saved');

    const templateId = new URL(page.url()).pathname.split('/').pop()!;

    // Preview: the real client form in a new tab; the conditional field appears after the answer.
    const preview = await openPreview(page);
    await shown(preview.getByRole('radio', { name: 'Person' }));
    expect(await preview.getByLabel(/Company name/).count()).toBe(0);
    await preview.getByRole('radio', { name: 'Business' }).check();
    await shown(preview.getByLabel(/Company name/));
    await screens(preview, TEST)('preview');
    await preview.getByLabel('Preview language').selectOption({ label: 'Deutsch' });
    await shown(preview.getByText('Kundenaufnahme'));
    await shown(preview.getByRole('radio', { name: 'Unternehmen' }));
    await shown(preview.getByText('Sie sind'));
    await screens(preview, TEST)('preview-de');
    await preview.close();

    // Two saves racing: another tab saves first; this one is told in words.
    const { page: other } = await openTab(context);
    await other.goto(page.url());
    await shown(other.getByRole('heading', { level: 1, name: 'Template: Client intake' }));
    await other.getByLabel('Description', { exact: true }).fill('Saved in the other tab');
    await button(other, 'Save template').click();
    await shown(other.getByText('Template saved (version 3).', { exact: false }));
    await other.close();
    await page.getByLabel('Description', { exact: true }).fill('Saved in this tab');
    await button(page, 'Save template').click();
    await shown(page.getByText('someone else saved this template after you opened it', { exact: false }));
    await at('builder-conflict');
    await button(page, 'Reload the saved version').click();
    await expect
      .poll(() => page.getByLabel('Description', { exact: true }).inputValue(), { timeout: TIMEOUT })
      .toBe('Saved in the other tab');

    // Unsaved changes: leaving asks first.
    await field(page, 'Template name').fill('Client intake v2');
    await page.getByRole('link', { name: 'Back to templates' }).click();
    await shown(page.getByRole('dialog').getByText('Your changes to this template are not saved'));
    await at('leave-dialog');
    await button(page.getByRole('dialog'), 'Leave without saving').click();
    await shown(page.getByRole('heading', { level: 1, name: 'Templates' }));

    // Start from the gallery: the copy rule explained, the copy opens in the builder.
    await button(page, 'Start from the gallery').click();
    const galleryDialog = page.getByRole('dialog');
    await shown(galleryDialog.getByText('gallery_template_copy_required', { exact: false }));
    await shown(galleryDialog.getByText('Holds sample agreement text', { exact: false }));
    await at('gallery-dialog');
    await button(galleryDialog, 'Copy into my team').click();
    await shown(page.getByRole('heading', { level: 1, name: `Template: ${gallery.name}` }));
    await shown(page.getByText('Sends are blocked.'));
    await openSection(page, 'Templates');

    // Duplicate and delete.
    const row = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Client intake', exact: true }) });
    await shown(row);
    await button(row, 'Duplicate').click();
    await shown(page.getByText('Duplicated as “Copy of Client intake”.'));
    await at('templates-listed');
    const copyRow = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Copy of Client intake' }) });
    await button(copyRow, 'Delete').click();
    await shown(page.getByRole('dialog').getByText('Onboardings already made from it keep their own copy.'));
    await at('delete-dialog');
    await button(page.getByRole('dialog'), 'Delete').click();
    await shown(page.getByText('“Copy of Client intake” was deleted.'));
    await expect
      .poll(() => page.getByRole('link', { name: 'Copy of Client intake' }).count(), { timeout: TIMEOUT })
      .toBe(0);

    // The public API shows the saved template with its order and rule.
    const teamId = await teamIdOf(page);
    await updateTeam(service, teamId, { plan: 'pro' });
    const { apiKey } = await createApiKey(service, teamId);
    const answer = await apiRequest(service, apiKey, 'GET', `/templates/${templateId}`);
    expect(answer.status).toBe(200);
    const steps = answer.body.template.template_steps;
    expect(steps.map((step: { title: string }) => step.title)).toEqual([
      'About you',
      'Documents',
      'Agreement',
    ]);
    expect(steps[1].template_fields.map((f: { label: string }) => f.label)).toEqual([
      'Reference',
      'ID document',
    ]);
    expect(steps[0].template_fields[2].conditional_rules).toEqual({
      show_when: { field_id: steps[0].template_fields[0].id, operator: 'equals', value: 'Business' },
    });
  }, 180_000);

  it('keeps a payment to what Stripe charges, translates its description and warns at save', async () => {
    const { page } = await openPage(browser, 'desktop');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, { ...OWNER, team: 'Kanzlei Zahl', email: 'pia.payments@example.com' });
    const teamId = await teamIdOf(page);
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
    await field(page, 'Translate into').selectOption({ label: 'Deutsch' });
    await field(fee, 'What the payment is for in Deutsch').fill('Monatliche Buchhaltung');

    // Saved on the trial plan: the plan cannot collect payments, said beside the saved message.
    await save.click();
    await shown(page.getByText('Template saved (version 2).', { exact: false }));
    await shown(page.getByText('Your plan (Pro trial) cannot collect payments', { exact: false }));
    await screens(page, TEST)('builder-payment-plan');

    // The client form shows the description in the client's language.
    const preview = await openPreview(page);
    await preview.getByLabel('Preview language').selectOption({ label: 'Deutsch' });
    await shown(preview.getByText('Monatliche Buchhaltung'));
    await preview.close();

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
  }, 120_000);
});
