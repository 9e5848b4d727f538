/**
 * Driving the team workspace as a person does, by accessible names: the buttons (Sign in,
 * Create account, Create key, Rotate, Revoke, Copy, Check, Invite member, Sign out), the
 * labelled inputs (Email, Password, Team name, Your name, Key name, Two-factor code) and
 * the permission checkboxes of the key form, never CSS classes.
 */
import type { Locator, Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot, VIEWPORTS, type ViewportName } from '../helpers/browser.ts';
import { ADMIN_TOKEN } from '../helpers/service.ts';

export const TIMEOUT = 10_000;

export const button = (page: Page | Locator, name: string | RegExp) =>
  page.getByRole('button', { name, exact: typeof name === 'string' });
export const field = (page: Page | Locator, label: string | RegExp) =>
  page.getByLabel(label, { exact: typeof label === 'string' });
export const navigation = (page: Page) => page.getByRole('navigation');

export interface Person {
  team?: string;
  name: string;
  email: string;
  password: string;
}

/** Waits for `locator` to be visible (the page answers after its API call). */
export const shown = (locator: Locator) => locator.first().waitFor({ state: 'visible', timeout: TIMEOUT });

/**
 * The sign-up form at /: team name, name, email, password, Create account; then "Check your
 * email", sign in, and (unless `verify` is false) follow the emailed verification link as
 * the owner would; waits for the signed-in page.
 */
export async function signUp(
  page: Page,
  person: Person,
  atScreen?: (screen: string) => Promise<void>,
  { verify = true }: { verify?: boolean } = {},
) {
  await shown(button(page, 'Create account'));
  await field(page, 'Team name').fill(person.team ?? 'Northwind Advisors');
  await field(page, 'Your name').fill(person.name);
  await field(page, 'Email').fill(person.email);
  await field(page, 'Password').fill(person.password);
  if (atScreen) await atScreen('sign-up-filled');
  await button(page, 'Create account').click();
  await shown(page.getByRole('heading', { name: 'Check your email' }));
  if (atScreen) await atScreen('sign-up-check-email');
  await page.getByRole('link', { name: 'Sign in to set up your team' }).click();
  await signIn(page, person.email, person.password);
  if (verify) await verifyEmail(page, person.email);
}

/**
 * The newest verification link emailed to `email`, read from the team's outbox through the
 * operator API (the owner's mailbox), opened and confirmed; back where the page was.
 */
export async function verificationPath(page: Page, email: string): Promise<string> {
  const origin = new URL(page.url()).origin;
  const me = await page.request.get(`${origin}/workspace/v1/me`);
  const teamId = ((await me.json()) as { team: { id: string } }).team.id;
  const answer = await page.request.get(`${origin}/admin/v1/teams/${teamId}/emails`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  const { emails } = (await answer.json()) as { emails: { to: string; subject: string; text: string }[] };
  const mail = emails.find((sent) => sent.to === email && sent.subject === 'Verify your email address');
  const path = /\/workspace\/verify-email\/[0-9a-f]{64}/.exec(mail?.text ?? '')?.[0];
  if (!path) throw new Error(`no verification email to ${email}`);
  return `${origin}${path}`;
}

export async function verifyEmail(page: Page, email: string, atScreen?: (screen: string) => Promise<void>) {
  const back = page.url();
  await page.goto(await verificationPath(page, email));
  await shown(button(page, 'Verify email address'));
  if (atScreen) await atScreen('verify-email');
  await button(page, 'Verify email address').click();
  await shown(page.getByText('Your email address is verified'));
  if (atScreen) await atScreen('verify-email-done');
  await page.goto(back);
  await signedIn(page);
}

/** The sign-in form: email, password, Sign in (waits for nothing: the caller reads the outcome). */
export async function submitSignIn(page: Page, email: string, password: string) {
  await shown(button(page, 'Sign in'));
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await button(page, 'Sign in').click();
}

export async function signIn(page: Page, email: string, password: string) {
  await submitSignIn(page, email, password);
  await signedIn(page);
}

/** Waits for the signed-in workspace: its navigation (a sidebar, or a Menu button on a phone). */
export const signedIn = (page: Page) => shown(page.getByRole('navigation', { name: 'Workspace' }));

/** On a phone, opens the navigation's menu (the sidebar of a wide screen is always open). */
export async function openMenu(page: Page) {
  const menu = button(page, 'Menu');
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
}

export async function signOut(page: Page) {
  await openMenu(page);
  await button(page, 'Sign out').click();
  await shown(button(page, 'Sign in'));
}

/** Opens a section of the workspace by its link in the navigation. */
export async function openSection(page: Page, name: string | RegExp) {
  await openMenu(page);
  await navigation(page).getByRole('link', { name }).first().click();
}

/**
 * Photographs and checks the screen with axe-core at the page's size, then at the other
 * size of the two (390x844 and 1280x900), and returns to the first.
 */
export function screens(page: Page, test: string) {
  return async (screen: string) => {
    const size = page.viewportSize();
    const first: ViewportName = size && size.width < 800 ? 'mobile' : 'desktop';
    const second: ViewportName = first === 'mobile' ? 'desktop' : 'mobile';
    for (const viewport of [first, second]) {
      await page.setViewportSize(VIEWPORTS[viewport].viewport!);
      await screenshot(page, test, screen, viewport);
      await expectNoAxeViolations(page, `${screen} (${viewport})`);
    }
    await page.setViewportSize(VIEWPORTS[first].viewport!);
  };
}
