import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  expectNoAxeViolations,
  focusedElement,
  launchBrowser,
  openPage,
  screenshot,
  type ViewportName,
} from '../helpers/browser.ts';
import { checkoutCompleted, signedStripeDelivery } from '../helpers/stripe-events.ts';
import { adminRequest, apiRequest } from '../helpers/tenant.ts';
import { advanceClock } from '../integration/portal-fixtures.ts';
import { button, expectStep, field, heading, texts } from './form-page.ts';
import {
  createFormTenant,
  expectLogFreeOf,
  fieldId,
  sendForm,
  serverErrorsInLog,
  startFormService,
  type FormService,
  type FormTenant,
  type SentForm,
} from './form-service.ts';

/*
 * Paying in the client's form through Stripe Checkout, in Chromium with stripe-mock behind
 * the service: the Pay button asks the portal for a Checkout Session and goes to its url
 * (page.route stops the navigation at checkout.stripe.com); Stripe's success URL brings the
 * client back to the form, which says "Processing" until the signed checkout.session.completed
 * arrives at POST /webhooks/stripe, then "Paid"; the step submits and the onboarding
 * completes. A cancelled Checkout says so and offers the button again; a failed one too.
 * The keyboard alone drives the payment; axe-core finds nothing at 390x844 and 1280x900.
 */

const WEBHOOK_SECRET = 'whsec_formpayment';
const ACCOUNT = 'acct_1FormPayment';
const FEE = 'Set-up fee';
const text = texts('en-US');

let service: FormService;
let browser: Browser;
let tenant: FormTenant;
let fee: string;
const secrets = { tokens: [] as string[], pins: [] as string[] };

const template = {
  name: 'Engagement',
  steps: [
    {
      title: 'Your details',
      sort_order: 1,
      fields: [{ type: 'short_text', label: 'Full name', sort_order: 1, is_required: true }],
    },
    {
      title: 'Payment',
      sort_order: 2,
      fields: [
        {
          type: 'payment',
          label: FEE,
          sort_order: 1,
          is_required: true,
          config: { amount_cents: 15000, currency: 'EUR', description: 'One-time set-up of your books' },
        },
        {
          type: 'payment',
          label: 'Monthly bookkeeping',
          sort_order: 2,
          is_required: false,
          config: { amount_cents: 1500, currency: 'eur', interval: 'month' },
        },
      ],
    },
  ],
};

beforeAll(async () => {
  service = await startFormService({
    STRIPE_API_URL: inject('stripeApiUrl'),
    STRIPE_SECRET_KEY: 'sk_test_formpayment',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  browser = await launchBrowser();
  tenant = await createFormTenant(service, { plan: 'pro' }, template);
  fee = fieldId(tenant.template, FEE);
  const connected = await adminRequest(service, 'PATCH', `/teams/${tenant.teamId}`, {
    stripe_account_id: ACCOUNT,
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
}, 60_000);

afterAll(async () => {
  try {
    if (service) {
      expectLogFreeOf(service, secrets);
      expect(serverErrorsInLog(service)).toEqual([]);
    }
  } finally {
    await browser?.close();
    await service?.stop();
  }
});

async function sent(): Promise<SentForm> {
  await advanceClock(service, 61);
  const form = await sendForm(service, tenant);
  secrets.tokens.push(form.token);
  return form;
}

/** Stops every navigation to Stripe Checkout with a plain page; answers the URLs the page went to. */
async function stopAtCheckout(page: Page): Promise<string[]> {
  const visited: string[] = [];
  await page.route('https://checkout.stripe.com/**', async (route) => {
    visited.push(route.request().url());
    await route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>Checkout</title><h1>Stripe Checkout</h1></html>',
    });
  });
  return visited;
}

/** A signed Stripe event delivered to the service's webhook. */
async function deliver(form: SentForm, type?: string) {
  const event = checkoutCompleted({
    onboardingId: form.onboardingId,
    fieldId: fee,
    teamId: tenant.teamId,
    account: ACCOUNT,
    amount: 15000,
    currency: 'eur',
    mode: 'payment',
    ...(type ? { type, paymentStatus: 'unpaid' as const } : {}),
  });
  const payload = JSON.stringify(event);
  const answer = await fetch(`${service.url}/webhooks/stripe`, {
    method: 'POST',
    headers: signedStripeDelivery(payload, WEBHOOK_SECRET),
    body: payload,
  });
  expect(answer.status, await answer.text()).toBe(200);
}

const returnUrl = (outcome: 'success' | 'cancelled') =>
  `${service.publicUrl}/f/checkout-return?outcome=${outcome}&field=${encodeURIComponent(fee)}`;

/** Opens the form and answers the first step; the Payment step shows. */
async function toPayment(page: Page, form: SentForm) {
  await page.goto(form.link);
  await expectStep(page, 'Your details');
  await field(page, 'Full name').fill('Avery Client');
  await button(page, text.t('nav.next')).click();
  await expectStep(page, 'Payment');
}

/** Holds every answer's save before it goes to the service until `release` is called. */
async function holdAnswerSaves(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/portal/v1/onboardings/*/answers/*', async (route) => {
    if (route.request().method() === 'PUT') await released;
    await route.continue();
  });
  return release;
}

/** The types of the dialogs the page opens (each accepted, as a client leaving would). */
function collectDialogs(page: Page): string[] {
  const types: string[] = [];
  page.on('dialog', (dialog) => {
    types.push(dialog.type());
    void dialog.accept();
  });
  return types;
}

const payButton = (page: Page) => button(page, text.t('payment.pay', { amount: '€150.00' }));

/** Presses Tab until the element labelled `label` has focus, which it shows. */
async function tabTo(page: Page, label: string) {
  for (let presses = 0; presses < 20; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await focusedElement(page);
    if (focused?.label.trim() === label) {
      expect(focused.visible, `${label} shows its focus`).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${label}`);
}

async function check(page: Page, screen: string, viewport: ViewportName) {
  await expectNoAxeViolations(page, screen);
  await screenshot(page, 'payment', screen, viewport);
}

describe('a payment field of the client form', () => {
  it('pays with the keyboard through Checkout, shows Processing, then Paid, and the form completes', async () => {
    const form = await sent();
    const { context, page, watch } = await openPage(browser, 'desktop');
    try {
      const visited = await stopAtCheckout(page);
      await toPayment(page, form);
      await page.getByText(text.t('payment.amount', { amount: '€150.00' })).waitFor();
      await page.getByText('One-time set-up of your books').waitFor();
      await page
        .getByText(text.t('payment.collects', { team: 'Northwind Advisors' }))
        .first()
        .waitFor();
      // A subscription says how often, on its amount and its button.
      await page.getByText(text.t('payment.amountEvery.month', { amount: '€15.00' })).waitFor();
      await button(page, text.t('payment.subscribe.month', { amount: '€15.00' })).waitFor();
      // Unpaid, the step asks for the payment, not for an answer.
      await button(page, text.t('nav.toReview')).click();
      await expect.poll(() => page.getByText(text.t('error.payment_required')).count()).toBeGreaterThan(0);
      await check(page, 'due', 'desktop');

      // The summary's link leads to the Pay button.
      await tabTo(page, `${FEE}: ${text.t('error.payment_required')}`);
      await page.keyboard.press('Enter');
      const focused = await focusedElement(page);
      expect([focused?.label.trim(), focused?.visible]).toEqual([
        text.t('payment.pay', { amount: '€150.00' }),
        true,
      ]);
      await page.keyboard.press('Enter');
      await page.waitForURL(/checkout\.stripe\.com/);
      expect(visited).toHaveLength(1);
      expect(visited[0]).not.toContain(form.token);

      // Stripe sends the client to the success URL, which holds no token.
      await page.goto(returnUrl('success'));
      await page.getByText(text.t('payment.processing')).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/f/${form.token}`);
      await heading(page, 'Payment').first().waitFor();
      await check(page, 'processing', 'desktop');

      await deliver(form);
      await page.getByText(text.t('payment.paidStatus'), { exact: true }).waitFor({ timeout: 10_000 });
      await check(page, 'paid', 'desktop');
      await expect.poll(() => payButton(page).count()).toBe(0);

      await button(page, text.t('nav.toReview')).click();
      await heading(page, text.t('review.title')).waitFor();
      await button(page, text.t('review.submit')).press('Enter');
      await heading(page, text.t('done.title')).waitFor({ timeout: 15_000 });
      const onboarding = await apiRequest(service, tenant.apiKey, 'GET', `/onboardings/${form.onboardingId}`);
      expect(onboarding.body.onboarding.status).toBe('completed');
      watch.assertClean();
    } finally {
      await context.close();
    }
  });

  it('a cancelled Checkout says so and offers the button again; a failed payment too (phone)', async () => {
    const form = await sent();
    const { context, page, watch } = await openPage(browser, 'mobile');
    try {
      const visited = await stopAtCheckout(page);
      const dialogs = collectDialogs(page);
      // The name's save is held: Pay, tapped while it is, saves it before the page leaves.
      const releaseSaves = await holdAnswerSaves(page);
      await toPayment(page, form);
      await check(page, 'due', 'mobile');
      await payButton(page).tap();
      await page.waitForTimeout(300);
      releaseSaves();
      await page.waitForURL(/checkout\.stripe\.com/);
      expect(visited).toHaveLength(1);
      expect(dialogs, 'no "leave site?" on the way to Checkout').toEqual([]);

      await page.goto(returnUrl('cancelled'));
      await page.unroute('**/portal/v1/onboardings/*/answers/*');
      await page.getByText(text.t('payment.cancelled')).waitFor();
      await payButton(page).waitFor();
      await check(page, 'cancelled', 'mobile');

      await deliver(form, 'checkout.session.async_payment_failed');
      await page.reload();
      // Step 1 was saved before Checkout: the form resumes at the payment it still needs.
      await expectStep(page, 'Payment');
      await page.getByText(text.t('payment.failed')).waitFor();
      await payButton(page).waitFor();
      await check(page, 'failed', 'mobile');
      watch.assertClean();
    } finally {
      await context.close();
    }
  });
});
