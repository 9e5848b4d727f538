import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * /docs (swagger-ui over GET /openapi.json) in a real browser: the four APIs' tags and
 * the webhooks, with the hook and signed-webhook payload of an event type one click away.
 */

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
  const { context, page } = await openPage(browser, 'desktop');
  try {
    await page.goto(`${service.url}/docs`);
    await page.getByText('hook onboarding.sent', { exact: true }).first().waitFor({ timeout: 20_000 });
    for (const tag of ['public', 'operator', 'portal', 'workspace', 'webhooks']) {
      await expect(page.locator(`#operations-tag-${tag}`).count()).resolves.toBe(1);
    }
    const body = await page.locator('body').innerText();
    expect(body).toContain('signed webhook onboarding.cancelled');
    expect(body).toContain('hook file.uploaded');
    await page.getByText('hook onboarding.sent', { exact: true }).first().click();
    await page.getByText('"send_number": 1').first().waitFor({ timeout: 10_000 });
    const opened = await page.locator('body').innerText();
    expect(opened).toContain('webhook-signature');
    expect(opened).toContain('"event": "onboarding.sent"');
  } finally {
    await context.close();
  }
});
