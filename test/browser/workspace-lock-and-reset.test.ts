import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { request } from '../helpers/tenant.ts';
import { button, field, screens, shown, signIn, submitSignIn, TIMEOUT } from './workspace-page.ts';
import {
  emailedLink,
  expectWorkspaceLogFreeOf,
  lastAccountEmailTo,
  Secrets,
  startWorkspaceService,
  type WorkspaceService,
} from './workspace-service.ts';
import { alignClockToWindow } from '../helpers/clock-windows.ts';
import { FAILURE_WINDOW_SECONDS } from '../../services/access/workspace/sign-in-throttle.ts';

/**
 * Ten wrong passwords typed into the sign-in screen lock the account: the screen says so in
 * words, with the minutes to wait, and the right password is refused too until then. The
 * service clock moves 30 seconds after each failure from the fifth, past the slow-down.
 * Then the way out the message names: a reset link by email, a new password, signed in.
 */

const EMAIL = 'lena.locked@example.com';
const PASSWORD = 'the right passphrase 5512';
const NEW_PASSWORD = 'a brand new passphrase 8830';

let service: WorkspaceService;
let browser: Browser;
const secrets = new Secrets();
secrets.add('password', PASSWORD);
secrets.add('new password', NEW_PASSWORD);

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
  // The 15-minute failure windows are aligned to the clock: start at the beginning of one.
  const window = 15 * 60 * 1000;
  service.clock.set(new Date(Math.ceil(service.clock.now().getTime() / window) * window + 1000));
  const signedUp = await request(service, 'POST', '/workspace/v1/sign-up', {
    body: { team_name: 'Lakeside Bookkeeping', name: 'Lena Locked', email: EMAIL, password: PASSWORD },
  });
  // "Check your email": no session comes with the answer; the browser signs in below.
  expect(signedUp.status).toBe(202);
});

afterAll(async () => {
  try {
    if (service) expectWorkspaceLogFreeOf(service, secrets);
  } finally {
    await browser?.close();
    await service?.stop();
  }
});

async function toSignIn(page: Page) {
  await page.goto(`${service.publicUrl}/`);
  const link = page.getByRole('link', { name: /^sign in$/i });
  await Promise.race([
    button(page, 'Sign in').waitFor({ timeout: TIMEOUT }),
    link.first().waitFor({ timeout: TIMEOUT }),
  ]);
  if (!(await button(page, 'Sign in').isVisible())) await link.first().click();
  await shown(button(page, 'Sign in'));
}

const LOCKED = /locked.*try again in (\d+) minutes?/i;

describe('the sign-in screen', () => {
  it('shows the lock in words, with minutes, after ten wrong passwords', async () => {
    const { context, page, watch } = await openPage(browser, 'mobile');
    const atScreen = screens(page, 'workspace-lock');
    try {
      await toSignIn(page);
      alignClockToWindow(service.clock, FAILURE_WINDOW_SECONDS);
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const wrong = `wrong passphrase number ${attempt}`;
        secrets.add('wrong password', wrong);
        const answered = page.waitForResponse(
          (response) =>
            response.url().endsWith('/workspace/v1/sessions') && response.request().method() === 'POST',
        );
        await submitSignIn(page, EMAIL, wrong);
        expect((await answered).status(), `attempt ${attempt}`).toBe(attempt < 10 ? 401 : 429);
        const answer = attempt < 10 ? /wrong/i : LOCKED;
        await expect
          .poll(() => page.getByText(answer).count(), { timeout: TIMEOUT, message: `attempt ${attempt}` })
          .toBeGreaterThan(0);
        if (attempt === 1) await atScreen('sign-in-wrong');
        if (attempt >= 5) service.clock.advance(31);
      }
      const message = (await page.getByText(LOCKED).first().textContent()) ?? '';
      expect(Number(LOCKED.exec(message)?.[1])).toBeGreaterThanOrEqual(14);
      await atScreen('sign-in-locked');

      // The right password is refused too while the lock lasts.
      await submitSignIn(page, EMAIL, PASSWORD);
      await expect.poll(() => page.getByText(LOCKED).count(), { timeout: TIMEOUT }).toBeGreaterThan(0);
      await expect(button(page, 'Sign out').count()).resolves.toBe(0);
      watch.assertClean();
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a reset link from "Forgot password?" ends the lock; the new password signs in', async () => {
    const { context, page, watch } = await openPage(browser, 'desktop');
    const atScreen = screens(page, 'workspace-reset');
    try {
      await toSignIn(page);
      await page.getByRole('link', { name: /forgot password/i }).click();
      await shown(page.getByRole('button', { name: /send reset link/i }));
      await atScreen('forgot-password');
      await field(page, 'Email').fill(EMAIL);
      await page.getByRole('button', { name: /send reset link/i }).click();
      await expect
        .poll(() => page.getByText(/we sent a link/i).count(), { timeout: TIMEOUT })
        .toBeGreaterThan(0);
      await atScreen('forgot-password-sent');

      await page.goto(emailedLink(service, await lastAccountEmailTo(service, EMAIL), 'reset-password'));
      await shown(field(page, 'Password'));
      await atScreen('reset-password');
      await field(page, 'Password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: /save password/i }).click();
      await expect
        .poll(() => page.getByText(/password is changed/i).count(), { timeout: TIMEOUT })
        .toBeGreaterThan(0);
      await atScreen('reset-password-done');

      await toSignIn(page);
      await signIn(page, EMAIL, NEW_PASSWORD);
      await secrets.addSession(context, page);

      await page.goto(`${service.publicUrl}/workspace/no-such-page`);
      await shown(page.getByRole('heading', { name: /page not found/i }));
      await atScreen('not-found');
      watch.assertClean();
    } finally {
      await context.close();
    }
  }, 30_000);
});
