import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VIEWPORT_NAMES,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  type ViewportName,
} from '../helpers/browser.ts';
import { adminRequest, apiRequest, request } from '../helpers/tenant.ts';
import { advanceClock, drain } from '../integration/portal-fixtures.ts';
import { TEAM_NAME, enterPin, heading, texts } from './form-page.ts';
import {
  createFormTenant,
  expectLogFreeOf,
  fieldId,
  sendForm,
  startFormService,
  type FormService,
  type FormTenant,
  type SentForm,
} from './form-service.ts';

/**
 * Every dead end of a link is a human page that names the team and says what to do, never
 * a JSON body, with zero axe-core violations at both sizes: an unknown token, an expired
 * link, a cancelled form, a completed form, a link locked by wrong PINs, a server error.
 * Rate limits stay on: the PIN lock is one of them.
 */

const PIN = '582046';
const WRONG_PIN = '111111';
const text = texts('en-US');

let service: FormService;
let browser: Browser;
let tenant: FormTenant;
const secrets = { tokens: [] as string[], pins: [PIN, WRONG_PIN] };

const simpleTemplate = {
  name: 'Quick check',
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      fields: [{ type: 'short_text', label: 'Full name', sort_order: 1, is_required: true }],
    },
  ],
};

beforeAll(async () => {
  service = await startFormService({ RATE_LIMITS: 'on' });
  browser = await launchBrowser();
  tenant = await createFormTenant(service, {}, simpleTemplate);
});

afterAll(async () => {
  try {
    if (service) expectLogFreeOf(service, secrets);
  } finally {
    await browser?.close();
    await service?.stop();
  }
});

async function sent(options: Parameters<typeof sendForm>[2] = {}): Promise<SentForm> {
  // The test clock stands still: a new minute keeps the public API's rate limit away.
  await advanceClock(service, 61);
  const form = await sendForm(service, tenant, options);
  secrets.tokens.push(form.token);
  return form;
}

/**
 * Opens `link` at both sizes; the dead end's title shows (and the team where the page
 * knows it), no JSON, and axe-core finds nothing.
 */
async function expectDeadEnd(
  link: string,
  screen: string,
  title: string,
  options: {
    team?: boolean;
    prepare?: (page: Page) => Promise<unknown>;
    afterLoad?: (page: Page) => Promise<unknown>;
  } = {},
) {
  for (const viewport of VIEWPORT_NAMES as ViewportName[]) {
    const { context, page, watch } = await openPage(browser, viewport);
    try {
      await options.prepare?.(page);
      await page.goto(link);
      await options.afterLoad?.(page);
      await heading(page, title).waitFor({ timeout: 10_000 });
      if (options.team !== false) {
        await expect.poll(() => page.getByText(TEAM_NAME).count()).toBeGreaterThan(0);
      }
      const body = (await page.locator('body').innerText()).trim();
      expect(body.startsWith('{')).toBe(false);
      expect(body).not.toMatch(/"code"\s*:/);
      await screenshot(page, 'dead-end', screen, viewport);
      await expectNoAxeViolations(page, `${screen} (${viewport})`);
      watch.assertClean();
    } finally {
      await context.close();
    }
  }
}

describe('dead ends', () => {
  it('an unknown token', async () => {
    await expectDeadEnd(
      `${service.publicUrl}/f/${'0'.repeat(64)}`,
      'inactive',
      text.t('dead.inactive.title'),
      {
        team: false,
      },
    );
  }, 60_000);

  it('an expired link', async () => {
    const expiresAt = new Date(service.clock.now().getTime() + 3600_000).toISOString();
    const form = await sent({ pin: PIN, expires_at: expiresAt });
    await advanceClock(service, 2 * 3600);
    await drain(service);
    await expectDeadEnd(form.link, 'expired', text.t('dead.expired.title'));
  }, 60_000);

  it('a cancelled form', async () => {
    const form = await sent({ pin: PIN });
    const cancelled = await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${form.onboardingId}`, {
      body: { status: 'cancelled' },
    });
    expect(cancelled.status).toBe(200);
    await expectDeadEnd(form.link, 'cancelled', text.t('dead.cancelled.title'));
  }, 60_000);

  it('a completed form shows its copy of the answers after its PIN, not an empty end', async () => {
    const form = await sent({ pin: PIN });
    const step = tenant.template.template_steps[0]!;
    const portal = (method: string, path: string, body?: unknown) =>
      request(service, method, `/portal/v1/onboardings/${form.token}${path}`, {
        body,
        headers: { 'x-onboarding-pin': PIN },
      });
    expect((await portal('GET', '')).status).toBe(200);
    const answered = await portal('PUT', `/answers/${fieldId(tenant.template, 'Full name')}`, {
      value: 'Avery Quinn',
    });
    expect(answered.status).toBe(200);
    expect((await portal('POST', `/steps/${step.id}/submit`)).status).toBe(200);
    // Not a dead end: after the PIN, a completed link opens at the done screen with the copy.
    await expectDeadEnd(form.link, 'completed-copy', text.t('done.title'), {
      afterLoad: async (page) => {
        await enterPin(page, text, PIN);
        await heading(page, text.t('done.copyTitle')).waitFor({ timeout: 10_000 });
        await page.getByText('Avery Quinn').waitFor();
      },
    });
  }, 60_000);

  it('a link locked after 10 wrong PINs', async () => {
    const form = await sent({ pin: PIN });
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = await request(service, 'GET', `/portal/v1/onboardings/${form.token}`, {
        headers: { 'x-onboarding-pin': WRONG_PIN },
      });
      expect(answer.status).toBe(401);
    }
    await expectDeadEnd(form.link, 'pin-locked', text.t('dead.locked.title'));
  }, 60_000);

  it('a server error', async () => {
    const form = await sent({ pin: PIN });
    await expectDeadEnd(form.link, 'server-error', text.t('dead.error.title'), {
      team: false,
      prepare: (page) =>
        page.route('**/portal/v1/onboardings/*/face', (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'Internal server error', code: 'internal_error' }),
          }),
        ),
    });
  }, 60_000);

  it('a server error once the team is known', async () => {
    const form = await sent({ pin: PIN });
    await expectDeadEnd(form.link, 'server-error-after-pin', text.t('dead.error.title'), {
      prepare: async (page) => {
        await page.route(`**/portal/v1/onboardings/${form.token}`, (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'Internal server error', code: 'internal_error' }),
          }),
        );
      },
      afterLoad: async (page) => {
        await page.getByLabel(text.t('pin.label')).fill(PIN);
        await page.getByRole('button', { name: text.t('pin.submit') }).click();
      },
    });
  }, 60_000);

  it('the operator sees the link of a dead end as the email gave it', async () => {
    const form = await sent();
    const link = await adminRequest(service, 'GET', `/onboardings/${form.onboardingId}/link`);
    expect(link.body.url).toBe(form.link);
  });
});
