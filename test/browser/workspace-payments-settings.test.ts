import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focusedElement, launchBrowser, openPage } from '../helpers/browser.ts';
import { button, openSection, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/**
 * The plan and the team's Stripe account in Settings, in Chromium and by keyboard alone: an
 * owner sees the plan card and "Not connected", presses Connect with Stripe (the browser
 * stops at Stripe's account link, stripe-mock's URL), comes back through the return page
 * (Stripe needs more details: stripe-mock's accounts take no charges) and disconnects after
 * the question. Each screen passes axe-core at 390x844 and 1280x900.
 */

const OWNER = {
  team: 'Ledger Lane',
  name: 'Pia Payments',
  email: 'pia.payments@example.com',
  password: 'a long payments passphrase 8841',
};

let service: WorkspaceService;
let browser: Browser;

beforeAll(async () => {
  service = await startWorkspaceService({
    STRIPE_API_URL: inject('stripeApiUrl'),
    STRIPE_SECRET_KEY: 'sk_test_workspacesettings',
    STRIPE_WEBHOOK_SECRET: 'whsec_workspace_settings',
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Tabs forward until the button named `name` has the focus, then presses Enter on it. */
async function pressByKeyboard(page: Page, name: string) {
  for (let step = 0; step < 60; step += 1) {
    const focused = await focusedElement(page);
    if (focused?.tag === 'button' && focused.label === name) {
      expect(focused.visible, `${name} shows its focus`).toBe(true);
      return page.keyboard.press('Enter');
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`no button ${name} reached by Tab`);
}

describe('the workspace settings: plan and online payments', () => {
  it('an owner connects with Stripe, comes back through the return page and disconnects', async () => {
    const { page } = await openPage(browser, 'mobile');
    const at = screens(page, 'workspace-payments-settings');
    const stripePages: string[] = [];
    // stripe-mock answers account links on a stripe.me host; Stripe itself on stripe.com.
    const stripeHost = /^https:\/\/[^/]*\bstripe\.(com|me)\//;
    await page.route(stripeHost, (route) => {
      stripePages.push(route.request().url());
      return route.fulfill({
        contentType: 'text/html',
        body: '<title>Stripe</title><h1>Stripe onboarding</h1>',
      });
    });

    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    await openSection(page, 'Settings');
    const plan = page.getByRole('region', { name: 'Plan' });
    await shown(plan.getByText('Pro trial'));
    await shown(plan.getByText('25 onboardings'));
    const payments = page.getByRole('region', { name: 'Online payments' });
    await shown(payments.getByText('Not connected'));
    await shown(payments.getByText(/does not include online payments/));
    await at('not-connected');

    await pressByKeyboard(page, 'Connect with Stripe');
    await page.waitForURL(stripeHost, { timeout: TIMEOUT });
    expect(stripePages).toHaveLength(1);

    await page.goto(`${service.publicUrl}/workspace/settings/payments/return`);
    await shown(
      page.getByRole('status').getByText('Back from Stripe. Stripe account: Stripe needs more details.'),
    );
    await shown(payments.getByText('Stripe needs more details', { exact: true }));
    await shown(button(payments, 'Continue setup'));
    await at('returned');

    await pressByKeyboard(page, 'Disconnect');
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByText(/The account itself stays at Stripe/));
    await at('disconnect-question');
    // Cancel has the focus: one step back is the Disconnect of the dialog.
    await page.keyboard.press('Shift+Tab');
    expect((await focusedElement(page))?.label).toBe('Disconnect');
    await page.keyboard.press('Enter');
    await shown(page.getByRole('status').getByText('Stripe account disconnected.'));
    await shown(payments.getByText('Not connected'));
    await at('disconnected');
  });
});
