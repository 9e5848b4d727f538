import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustCertificatesForTests } from '../../shared/net/outbound.ts';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { selfSignedCertificate, startHttpsReceiver, type HttpsReceiver } from '../helpers/https-receiver.ts';
import { adminRequest } from '../helpers/tenant.ts';
import { button, openSection, screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import {
  expectWorkspaceLogFreeOf,
  Secrets,
  startWorkspaceService,
  type WorkspaceService,
} from './workspace-service.ts';

/**
 * The Webhooks screen of the team workspace in Chromium: an owner signs up, opens Webhooks,
 * subscribes a local HTTPS receiver (allowed by HOOK_TARGET_ALLOWLIST, its certificate
 * trusted) to an event, sends a test event from the subscription's Deliveries, and reads the
 * delivery and its attempt in the log. The screen and each of its dialogs (add subscription,
 * deliveries, add endpoint, rotate, delete, re-authentication, the secret) pass axe-core at
 * 390x844 and 1280x900; the log holds no password, cookie, CSRF token or signing secret.
 */

const OWNER = {
  team: 'Fabrikam Partners',
  name: 'Wren Webhooks',
  email: 'wren.webhooks@example.com',
  password: 'a long webhook passphrase 5520',
};

let service: WorkspaceService;
let receiver: HttpsReceiver;
let browser: Browser;
const secrets = new Secrets();
secrets.add('owner password', OWNER.password);

beforeAll(async () => {
  service = await startWorkspaceService({ HOOK_TARGET_ALLOWLIST: '127.0.0.1,localhost' });
  trustCertificatesForTests(service.context, (await selfSignedCertificate()).cert);
  receiver = await startHttpsReceiver();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  try {
    if (service) expectWorkspaceLogFreeOf(service, secrets);
  } finally {
    await browser?.close();
    await receiver?.close();
    await service?.stop();
  }
});

const dialog = (page: Page) => page.getByRole('dialog');

async function drain() {
  const answer = await adminRequest(service, 'POST', '/work/drain');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** The whsec_ secrets the page shows, in its text and its fields. */
async function shownSigningSecrets(page: Page): Promise<string[]> {
  const found = await page.evaluate(`(() => {
    const texts = [document.body.innerText];
    for (const input of document.querySelectorAll('input')) texts.push(input.value);
    return texts.join('\\n');
  })()`);
  return [...new Set(String(found).match(/whsec_[A-Za-z0-9+/=]{20,}/g) ?? [])];
}

describe('the Webhooks screen', () => {
  it('a hook subscription to an HTTPS receiver, a test event, and its delivery in the log', async () => {
    const { page, context } = await openPage(browser, 'desktop');
    const at = screens(page, 'workspace-webhooks');
    const target = `${receiver.url}/browser-hook`;

    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    await secrets.addSession(context, page);

    await openSection(page, 'Webhooks');
    await page.waitForURL(/\/workspace\/webhooks$/, { timeout: TIMEOUT });
    await shown(button(page, 'Add subscription'));
    await expect
      .poll(() => page.evaluate('document.activeElement && document.activeElement.tagName'), {
        timeout: TIMEOUT,
      })
      .toBe('H1');
    await at('webhooks');

    // Add a hook subscription: an event and the receiver's URL.
    await button(page, 'Add subscription').click();
    await shown(dialog(page).getByLabel('Target URL', { exact: true }));
    await dialog(page).getByLabel('Event', { exact: true }).selectOption('onboarding.sent');
    await at('add-subscription');
    // A URL that is not https is refused before sending, under its field.
    await dialog(page).getByLabel('Target URL', { exact: true }).fill('http://example.com/hook');
    await dialog(page).getByRole('button', { name: 'Add subscription', exact: true }).click();
    await shown(dialog(page).getByText('Enter an address starting with https://'));
    await at('add-subscription-invalid');
    await dialog(page).getByLabel('Target URL', { exact: true }).fill(target);
    await dialog(page).getByRole('button', { name: 'Add subscription', exact: true }).click();
    await shown(page.getByRole('status').filter({ hasText: `Subscribed ${target} to onboarding.sent.` }));
    await expect(dialog(page).count()).resolves.toBe(0);
    await shown(page.getByText(target));

    // Deliveries: send a test event; after the work runs, Refresh shows it with its attempt.
    await button(page, 'Deliveries').first().click();
    await shown(dialog(page).getByRole('button', { name: 'Send test event' }));
    await at('deliveries-empty');
    await dialog(page).getByRole('button', { name: 'Send test event' }).click();
    await shown(dialog(page).getByText(/test event is on its way/i));
    await drain();
    await expect.poll(() => receiver.requests.length, { timeout: TIMEOUT }).toBeGreaterThan(0);
    expect(receiver.requests[0]!.path).toBe('/browser-hook');
    expect(receiver.requests[0]!.json()).toMatchObject({ event: 'webhook.test' });
    await dialog(page).getByRole('button', { name: 'Refresh' }).click();
    await shown(dialog(page).getByText(/webhook\.test · delivered/));
    await shown(dialog(page).getByRole('cell', { name: 'HTTP 200' }));
    await at('deliveries');
    // Replay of the delivery: it is sent again.
    await dialog(page).getByRole('button', { name: 'Replay', exact: true }).first().click();
    await shown(dialog(page).getByText('1 delivery is sent again.'));
    await drain();
    await expect.poll(() => receiver.requests.length, { timeout: TIMEOUT }).toBe(2);
    expect(receiver.requests[1]!.headers['webhook-id']).toBe(receiver.requests[0]!.headers['webhook-id']);
    // Replay failed since (a day ago by default): nothing has failed.
    await dialog(page).getByRole('button', { name: 'Replay failed since' }).click();
    await shown(dialog(page).getByText('Nothing to send again.'));
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await expect(dialog(page).count()).resolves.toBe(0);

    // The hook signing secret: shown after typing the password again.
    await button(page, 'Show secret').click();
    const passwordField = dialog(page).getByLabel('Password', { exact: true });
    await shown(passwordField);
    await at('reauth');
    await passwordField.fill(OWNER.password);
    await passwordField.press('Enter');
    await shown(button(page, 'Hide secret'));
    const [teamSecret] = await shownSigningSecrets(page);
    expect(teamSecret).toMatch(/^whsec_/);
    secrets.add('hook signing secret', teamSecret);
    await at('secret-shown');

    // Rotate: the overlap is explained, the new secret shown.
    await button(page, 'Rotate secret').first().click();
    await shown(dialog(page).getByText(/next 24 hours/));
    await at('rotate-secret');
    await dialog(page).getByRole('button', { name: 'Rotate secret' }).click();
    await shown(dialog(page).getByText(/previous secret also signs until/i));
    const rotated = (await shownSigningSecrets(page)).filter((each) => each !== teamSecret);
    expect(rotated).toHaveLength(1);
    secrets.add('hook signing secret', rotated[0]);
    await at('rotated-secret');
    await dialog(page).getByRole('button', { name: 'Done' }).click();

    // A signed webhook endpoint: the form, its field check, then its secret once.
    await button(page, 'Add endpoint').click();
    await shown(dialog(page).getByLabel('Endpoint URL', { exact: true }));
    await expect(dialog(page).getByRole('checkbox').count()).resolves.toBe(9);
    await dialog(page).getByLabel('Endpoint URL', { exact: true }).fill(`${receiver.url}/browser-endpoint`);
    await dialog(page).getByRole('button', { name: 'Add endpoint', exact: true }).click();
    await shown(dialog(page).getByText('Choose at least one event type.'));
    await at('add-endpoint-invalid');
    await dialog(page).getByLabel('onboarding.cancelled', { exact: true }).check();
    await dialog(page).getByRole('button', { name: 'Add endpoint', exact: true }).click();
    await shown(dialog(page).getByText(/shown only once/));
    const endpointSecret = (await shownSigningSecrets(page)).find(
      (each) => each !== teamSecret && each !== rotated[0],
    );
    expect(endpointSecret).toMatch(/^whsec_/);
    secrets.add('endpoint secret', endpointSecret);
    await at('endpoint-secret');
    await dialog(page).getByRole('button', { name: 'Done' }).click();
    await shown(page.getByRole('heading', { name: `${receiver.url}/browser-endpoint` }));

    // Delete the subscription after a confirmation.
    await button(page, 'Delete').first().click();
    await shown(dialog(page).getByText(/cannot be undone/));
    await at('delete-subscription');
    await dialog(page).getByRole('button', { name: 'Delete' }).click();
    await shown(page.getByText('Your team has no hook subscriptions yet.'));
    const focused = () => page.evaluate('document.activeElement && document.activeElement.textContent');
    await expect.poll(focused, { timeout: TIMEOUT }).toBe('Hook subscriptions');
    await button(page, 'Delete').first().click();
    await shown(dialog(page).getByText(/queued for it fail/));
    await at('delete-endpoint');
    await dialog(page).getByRole('button', { name: 'Delete' }).click();
    await shown(page.getByText('Your team has no signed webhook endpoints yet.'));
    await expect.poll(focused, { timeout: TIMEOUT }).toBe('Signed webhook endpoints');
    await at('webhooks-after');
  }, 120_000);
});
