import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { createTemplate } from '../helpers/tenant.ts';
import { button, openSection, screens, shown, signUp, verifyEmail } from './workspace-page.ts';
import { inPage, startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/**
 * A self-serve sign-up in Chromium (docs/decisions/0006-self-serve-abuse-limits.md): the
 * form answers "Check your email"; signed in, every screen shows "Verify your email to
 * send" and a send is refused in words; the banner sends a new link (keyboard only); the
 * emailed link verifies the address, the banner goes and the send goes out. Every screen
 * passes axe-core at 390x844 and 1280x900.
 */

const OWNER = {
  team: 'Pier Consulting',
  name: 'Vera Verify',
  email: 'vera.verify@example.com',
  password: 'a long verification passphrase 5521',
};

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

describe('email verification of a self-serve sign-up', () => {
  it('sign-up, the banner, a refused send, a new link, the link followed, the send goes out', async () => {
    const { page } = await openPage(browser, 'mobile');
    const at = screens(page, 'workspace-verify-email');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER, at, { verify: false });

    const banner = page.getByRole('region', { name: 'Verify your email to send' });
    await shown(banner);
    await at('banner');
    const me = (await inPage(page, 'GET', '/workspace/v1/me')).body as {
      team: { id: string };
      csrf_token: string;
    };
    await createTemplate(service, me.team.id, { name: 'Intake' });
    const client = await inPage(page, 'POST', '/workspace/v1/clients', {
      body: { name: 'Ada Lovelace', email: 'ada@example.com' },
      headers: { 'x-csrf-token': me.csrf_token },
    });
    expect(client.status).toBe(201);
    const created = await inPage(page, 'POST', '/workspace/v1/onboardings', {
      body: {
        client_id: (client.body as { client: { id: string } }).client.id,
        template_id: await templateId(),
      },
      headers: { 'x-csrf-token': me.csrf_token },
    });
    expect(created.status).toBe(201);
    const onboardingId = (created.body as { onboarding: { id: string } }).onboarding.id;

    await page.goto(`${service.publicUrl}/workspace/onboardings/${onboardingId}`);
    await shown(page.getByText('Not sent yet'));
    await shown(banner);
    const dialog = page.getByRole('dialog');
    await button(page, 'Send').click();
    await button(dialog, 'Send').click();
    await shown(page.getByText(/^Verify your email to send: follow the link we emailed you/));
    await at('send-refused');
    // The refusal is shown on the page once the dialog closes (or in the dialog, left with Cancel).
    if ((await dialog.count()) > 0) await button(dialog, 'Cancel').click();

    // Keyboard only: a new link from the banner.
    await button(banner, 'Send a new link').focus();
    await page.keyboard.press('Enter');
    await shown(banner.getByRole('status').getByText('We sent a new link to your email.'));
    await at('new-link');
    const links = await service.context.pool.query(
      `select 1 from email_verification_tokens t join member_credentials c on c.member_id = t.member_id
       where c.email = $1`,
      [OWNER.email],
    );
    expect(links.rowCount).toBe(1);

    await verifyEmail(page, OWNER.email, at);
    await shown(page.getByText('Not sent yet'));
    expect(await banner.count()).toBe(0);
    await button(page, 'Send').click();
    await button(dialog, 'Send').click();
    await shown(page.getByRole('status').getByText('Sent. The invite email is on its way.'));
    await at('sent');
    await openSection(page, 'Members');
    await shown(page.getByRole('heading', { level: 1, name: 'Members' }));
    expect(await banner.count()).toBe(0);

    async function templateId(): Promise<string> {
      const { rows } = await service.context.pool.query<{ id: string }>(
        'select id from templates where team_id = $1',
        [me.team.id],
      );
      return rows[0]!.id;
    }
  }, 120_000);
});
