import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations, launchBrowser, openPage, VIEWPORT_NAMES } from '../helpers/browser.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * /docs (swagger-ui over GET /openapi.json) in a real browser: the four APIs' tags and
 * the webhooks, with the hook and signed-webhook payload of an event type one click away;
 * under its Content-Security-Policy (shared/http/docs-security-headers.ts) without a single
 * violation; axe finds nothing beyond the rules Swagger UI's own markup breaks, at both sizes.
 */

/** The axe rules Swagger UI itself breaks (third-party markup, not the service's pages). */
const SWAGGER_UI_AXE_RULES = [
  'color-contrast',
  'heading-order',
  'image-alt',
  'label',
  'nested-interactive',
  'region',
  'select-name',
  'target-size',
];

let service: TestService;
let browser: Browser;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

it('shows the APIs and the payload of every webhook', async () => {
  const { context, page, watch } = await openPage(browser, 'desktop');
  try {
    const answer = await page.goto(`${service.url}/docs`);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    // A large document: the UI may take a while to render it on a busy machine.
    await page.getByText('hook onboarding.sent', { exact: true }).first().waitFor({ timeout: 60_000 });
    // Swagger UI renders a long list of operations virtualized (only what is near the
    // viewport is in the DOM), so the page is scrolled through and every API's tag is met.
    const seen = new Set<string>();
    for (let step = 0; step < 400 && seen.size < 5; step += 1) {
      const ids = await page
        .locator('[id^=operations-tag-]')
        .evaluateAll((tags) => tags.map((tag) => tag.id));
      for (const id of ids) seen.add(id);
      await page.mouse.wheel(0, 800);
      await page.waitForTimeout(25);
    }
    expect([...seen].sort()).toEqual(
      ['operator', 'portal', 'public', 'webhooks', 'workspace'].map((tag) => `operations-tag-${tag}`),
    );
    const body = await page.locator('body').innerText();
    expect(body).toContain('signed webhook onboarding.cancelled');
    expect(body).toContain('hook file.uploaded');
    await page.getByText('hook onboarding.sent', { exact: true }).first().click();
    await page.getByText('"send_number": 1').first().waitFor({ timeout: 10_000 });
    const opened = await page.locator('body').innerText();
    expect(opened).toContain('webhook-signature');
    expect(opened).toContain('"event": "onboarding.sent"');
    watch.assertClean(); // no CSP violation, no page error
  } finally {
    await context.close();
  }
}, 120_000);

it.each(VIEWPORT_NAMES)(
  "loads with zero CSP errors and no axe violation beyond Swagger UI's known ones (%s)",
  async (viewport) => {
    const { context, page, watch } = await openPage(browser, viewport);
    try {
      await page.goto(`${service.url}/docs`);
      await page.locator('#operations-tag-public').waitFor({ timeout: 60_000 });
      expect(watch.failures).toEqual([]);
      expect(watch.consoleErrors.filter((text) => /Content.Security.Policy|CSP/i.test(text))).toEqual([]);
      // Swagger UI's own markup has these (its colours, unlabelled selects, nested buttons,
      // no landmarks): known and listed, so that anything new fails.
      const rules = (await axeViolations(page)).map((violation) => violation.id);
      expect(rules.filter((rule) => !SWAGGER_UI_AXE_RULES.includes(rule))).toEqual([]);
    } finally {
      await context.close();
    }
  },
  120_000,
);
