import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { createApiKey, createTemplate, updateTeam, type Team } from '../helpers/tenant.ts';
import {
  createClient,
  createOnboarding,
  formIds,
  formTemplate,
  send,
  type Tenant,
} from '../integration/portal-fixtures.ts';
import { button, field, openSection, screens, shown, signUp } from './workspace-page.ts';
import { inPage, startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/*
 * The onboardings list that scales, in Chromium: 200 onboardings (150 sent, 50 drafts) seeded
 * through the public API; a search by a client's name narrows the list and lives in the
 * address; an order changes the first row; a status filter applies as it is chosen and
 * survives reload and back; rows selected with the keyboard get a reminder after one
 * confirmation and a summary; the CSV export holds exactly the filtered rows. axe-core finds
 * nothing on each state at 1280x900 and 390x844.
 */

const OWNER = {
  team: 'Lister & Co',
  name: 'Lena Lister',
  email: 'lena.lister@example.com',
  password: 'a long lists passphrase 5521',
};
const SENT = 150;
const DRAFTS = 50;

let service: WorkspaceService;
let browser: Browser;

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** 200 onboardings through the public API, 25 at a time: client n is "Client 001" … "Client 200". */
async function seed(teamId: string) {
  await updateTeam(service, teamId, { monthly_onboarding_limit: 1000 } as never);
  const key = await createApiKey(service, teamId);
  const template = await createTemplate(service, teamId, { ...formTemplate(), name: 'Tax intake' });
  const tenant: Tenant = { ...key, teamId, team: { id: teamId } as Team, template, ids: formIds(template) };
  const one = async (n: number) => {
    const name = n === 137 ? 'Ada Lovelace' : `Client ${String(n).padStart(3, '0')}`;
    const client = await createClient(service, tenant, { name });
    const onboarding = await createOnboarding(service, tenant, client.id);
    if (n <= SENT) await send(service, tenant, onboarding.id);
  };
  for (let from = 1; from <= SENT + DRAFTS; from += 25)
    await Promise.all(Array.from({ length: 25 }, (_, i) => one(from + i)));
}

const rowLinks = (page: Page) => page.locator('table.list-table tbody th a');
const total = (page: Page, count: number) =>
  shown(page.getByRole('status').getByText(`${count} onboardings`, { exact: true }));
const query = (page: Page) => new URL(page.url()).searchParams;

describe('the onboardings list that scales', () => {
  it('searches, sorts, filters in the address, reminds selected rows, exports the view', async () => {
    const { page } = await openPage(browser, 'desktop');
    const at = screens(page, 'h10-lists');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    const me = (await inPage(page, 'GET', '/workspace/v1/me')).body as { team: { id: string } };
    const started = Date.now();
    await seed(me.team.id);
    console.log(`seeded 200 onboardings in ${Date.now() - started} ms`);

    await openSection(page, 'Onboardings');
    await total(page, SENT + DRAFTS);
    expect(await rowLinks(page).count()).toBe(25);
    await at('all');

    // Search by the client's name: one row, and the address holds it.
    await page.getByLabel('Search by client or template').fill('Ada Lovelace');
    await shown(page.getByRole('status').getByText('1 onboarding', { exact: true }));
    await expect(rowLinks(page).allInnerTexts()).resolves.toEqual(['Ada Lovelace']);
    expect(query(page).get('q')).toBe('Ada Lovelace');
    await at('searched');
    await page.getByLabel('Search by client or template').fill('');
    await total(page, SENT + DRAFTS);

    // Sort by client, ascending: the first row is the alphabetically first client.
    await field(page, 'Sort by').selectOption({ label: 'Client' });
    await field(page, 'Order').selectOption({ label: 'Ascending' });
    await shown(rowLinks(page).filter({ hasText: 'Ada Lovelace' }));
    await expect(rowLinks(page).first().innerText()).resolves.toBe('Ada Lovelace');
    await expect(rowLinks(page).nth(1).innerText()).resolves.toBe('Client 001');
    expect(query(page).get('sort')).toBe('client');

    // A status filter applies as it is chosen, survives a reload, and back undoes it.
    await field(page, 'Status').selectOption({ label: 'Draft' });
    await total(page, DRAFTS);
    expect(query(page).get('status')).toBe('draft');
    await page.reload();
    await total(page, DRAFTS);
    await expect(field(page, 'Status').inputValue()).resolves.toBe('draft');
    await expect(rowLinks(page).first().innerText()).resolves.toBe('Client 151');
    await page.goBack();
    await total(page, SENT + DRAFTS);
    expect(query(page).get('status')).toBeNull();
    await field(page, 'Status').selectOption({ label: 'Sent' });
    await total(page, SENT);
    await at('filtered');

    // Select two rows with the keyboard, send a reminder after one confirmation, read the summary.
    await page.getByRole('checkbox', { name: 'Select Ada Lovelace: Tax intake' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // the row's link
    await page.keyboard.press('Tab'); // the next row's checkbox
    await page.keyboard.press('Space');
    await shown(page.getByRole('group', { name: 'Selected onboardings' }).getByText('2 selected'));
    await at('selected');
    await button(page, 'Send reminder').click();
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByText('Send a reminder for 2 onboardings?'));
    await at('remind-dialog');
    await button(dialog, 'Send 2 reminders').click();
    await shown(page.getByRole('status').getByText('2 reminders sent.'));
    await at('reminded');

    // The export holds exactly the filtered rows.
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toContain('status=sent');
    const csv = await inPage(page, 'GET', href!);
    expect(csv.status).toBe(200);
    const rows = parse(csv.body as string, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(SENT);
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['sent']));
    expect(rows.filter((row) => row.client_name === 'Ada Lovelace')).toHaveLength(1);
  }, 120_000);
});
