import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { adminRequest, apiRequest, createApiKey, updateTeam } from '../helpers/tenant.ts';
import { expectTimeline } from './review-page.ts';
import { button, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { inPage, startWorkspaceService, teamIdOf, type WorkspaceService } from './workspace-service.ts';

/**
 * Payments on the team's side in Chromium: an onboarding with a required retainer (EUR) and
 * a deposit (USD) the processor confirmed; the onboarding page shows both in words with the
 * Stripe id and the "View in Stripe" link (a new tab, rel=noopener); the owner marks the
 * retainer paid with the keyboard alone through the note dialog; the timeline names the
 * owner; a draft whose template changed updates to it. axe-core finds nothing at 390x844
 * and 1280x900 on the panel and the dialog.
 */

const OWNER = {
  team: 'Harbor Bookkeeping',
  name: 'Pia Payer',
  email: 'pia.payer@example.com',
  password: 'a long payments passphrase 8812',
};
const NOTE = 'Bank transfer received on 3 March';
const ids = {
  about: randomUUID(),
  name: randomUUID(),
  pay: randomUUID(),
  retainer: randomUUID(),
  deposit: randomUUID(),
};

const definition = (name: string) => ({
  name,
  vertical: 'accounting',
  steps: [
    {
      id: ids.about,
      title: 'About you',
      sort_order: 0,
      fields: [{ id: ids.name, type: 'short_text', label: 'Full name', sort_order: 0, is_required: true }],
    },
    {
      id: ids.pay,
      title: 'Payment',
      sort_order: 1,
      fields: [
        {
          id: ids.retainer,
          type: 'payment',
          label: 'Retainer',
          sort_order: 0,
          is_required: true,
          config: { amount_cents: 15000, currency: 'EUR' },
        },
        {
          id: ids.deposit,
          type: 'payment',
          label: 'Deposit',
          sort_order: 1,
          is_required: false,
          config: { amount_cents: 5000, currency: 'USD' },
        },
      ],
    },
  ],
});

let service: WorkspaceService;
let browser: Browser;

beforeAll(async () => {
  service = await startWorkspaceService({
    STRIPE_API_URL: inject('stripeApiUrl'),
    STRIPE_SECRET_KEY: 'sk_test_workspace_payments_page',
    STRIPE_WEBHOOK_SECRET: 'whsec_workspace_payments_page',
  });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('payments on the onboarding page', () => {
  it('shows the payments, marks one paid with the keyboard, names who in the timeline, refreshes a draft', async () => {
    const { page } = await openPage(browser, 'mobile');
    await page.goto(`${service.publicUrl}/`);
    const toSignUp = page.getByRole('link', { name: /create a team|create (an )?account|sign up/i });
    await shown(toSignUp.or(button(page, 'Create account')));
    if (!(await button(page, 'Create account').isVisible())) await toSignUp.first().click();
    await signUp(page, OWNER);
    const teamId = await teamIdOf(page);
    await updateTeam(service, teamId, { plan: 'pro', payments_connected: true });
    const { apiKey } = await createApiKey(service, teamId);
    const created = await inPage(page, 'POST', '/workspace/v1/templates', {
      body: definition('Paid engagement'),
      headers: { 'x-csrf-token': await csrfOf(page) },
    });
    expect(created.status).toBe(201);
    const templateId = (created.body as { template: { id: string } }).template.id;
    const api = async (path: string, body: unknown) =>
      (await apiRequest(service, apiKey, 'POST', path, { body })).body as Record<string, any>;
    const client = await api('/clients', { name: 'Ada Client', email: 'ada.client@example.com' });
    const onboardingOf = async () =>
      (await api('/onboardings', { template_id: templateId, client_id: client.client.id })).onboarding
        .id as string;
    const onboardingId = await onboardingOf();
    expect(
      (await apiRequest(service, apiKey, 'POST', `/onboardings/${onboardingId}/send`, { body: {} })).status,
    ).toBe(200);
    const recorded = await adminRequest(service, 'POST', `/onboardings/${onboardingId}/payments`, {
      field_id: ids.deposit,
      payment_intent_id: 'pi_browser_deposit',
      amount_cents: 5000,
    });
    expect(recorded.status).toBe(201);

    const check = screens(page, 'workspace-payments');
    await page.goto(`${service.publicUrl}/workspace/onboardings/${onboardingId}`);
    await shown(page.getByRole('heading', { name: 'Payments' }));
    const row = (label: string) =>
      page.locator('li.payment').filter({ has: page.getByRole('heading', { name: label }) });
    await shown(row('Retainer').getByText('Not paid yet'));
    await shown(row('Retainer').getByText('€150.00'));
    await shown(row('Deposit').getByText('$50.00'));
    await shown(row('Deposit').getByText('pi_browser_deposit'));
    const link = row('Deposit').getByRole('link', { name: /View in Stripe/ });
    expect(await link.getAttribute('href')).toBe(
      'https://dashboard.stripe.com/test/payments/pi_browser_deposit',
    );
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener');
    expect(
      await row('Deposit')
        .getByRole('button', { name: /Mark as paid/ })
        .count(),
    ).toBe(0);
    await check('payments-panel');

    // Keyboard only: open the dialog, an empty note is refused in words, type it, send.
    await button(page, 'Mark as paid Retainer').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Mark “Retainer” as paid' });
    await shown(dialog);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await shown(dialog.getByText('Write a note of 1 to 500 characters.'));
    await check('mark-paid-dialog');
    await page.keyboard.type(NOTE);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await shown(page.getByText('“Retainer” marked as paid.'));
    await shown(row('Retainer').getByText('Marked as paid'));
    await shown(row('Retainer').getByText(NOTE));
    await shown(row('Retainer').getByText(OWNER.name));
    await expectTimeline(page, [
      'Payment received for “Deposit”: $50.00',
      `Marked “Retainer” as paid (€150.00): ${NOTE}`,
    ]);
    await shown(page.locator('li[data-kind="payment_marked_paid"]').getByText(`by ${OWNER.name}`));

    // A draft whose template changed takes the latest version.
    const draftId = await onboardingOf();
    const saved = await inPage(page, 'PUT', `/workspace/v1/templates/${templateId}`, {
      body: { ...definition('Paid engagement 2026'), version: 1 },
      headers: { 'x-csrf-token': await csrfOf(page) },
    });
    expect(saved.status).toBe(200);
    await page.goto(`${service.publicUrl}/workspace/onboardings/${draftId}`);
    await shown(button(page, 'Update to the latest template'));
    await button(page, 'Update to the latest template').click();
    await shown(page.getByText('The draft now has the latest template.'));
    await shown(page.getByRole('heading', { name: /Paid engagement 2026/ }));
    // The payments are read again after the update: the offer goes once they say the draft is current.
    await expect
      .poll(() => button(page, 'Update to the latest template').count(), { timeout: TIMEOUT })
      .toBe(0);
  }, 120_000);
});

async function csrfOf(page: import('playwright-core').Page): Promise<string> {
  const me = await inPage(page, 'GET', '/workspace/v1/me');
  return (me.body as { csrf_token: string }).csrf_token;
}
