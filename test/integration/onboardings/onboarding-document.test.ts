import { createHash } from 'node:crypto';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUE_DOCUMENTS } from '../../../services/onboardings/documents/documents-pass.ts';
import { AUDIT_TITLE } from '../../../services/onboardings/documents/render-pdf.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, createApiKey, createTemplate, type Team } from '../../helpers/tenant.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';
import {
  completeForm,
  drain,
  formIds,
  formTemplate,
  portal,
  sentOnboarding,
  type Tenant,
} from '../portal-fixtures.ts';
import { invites } from '../onboardings-fixtures.ts';

/*
 * The signed PDF of a completed onboarding over real HTTP and PostgreSQL: the documents pass
 * (POST /admin/v1/work/drain) renders it once, records its SHA-256 in an internal event and
 * queues the confirmation email with the copy of the answers; the team and the client
 * download it (attachment, nosniff, no-store), nobody else does; pdf.js reads every answer
 * and the audit page back.
 */

let service: TestService;
let tenant: Tenant;
let owner: Browser;
let stranger: Browser;
let onboardingId: string;
let token: string;
let otherToken: string;
let clientId: string;

const NAME = 'Ada 山田';
const PIN = '246810';

const download = (path: string, cookie = '') =>
  fetch(`${service.url}${path}`, { headers: cookie ? { cookie } : {} });

async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const task = getDocument({ data: bytes, useSystemFonts: false });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
  }
  await task.destroy();
  return pages;
}

const expectDownloadHeaders = (headers: Headers) => {
  expect(headers.get('content-type')).toBe('application/pdf');
  expect(headers.get('content-disposition')).toMatch(/^attachment; filename="Client onboarding pack\.pdf"/);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('cache-control')).toContain('no-store');
};

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await signUp(service, 'document-owner@example.com', 'a long document passphrase');
  owner = team.owner;
  ({ owner: stranger } = await signUp(
    service,
    'document-stranger@example.com',
    'a long stranger passphrase',
    'Other',
  ));
  const key = await createApiKey(service, team.teamId);
  const template = await createTemplate(service, team.teamId, formTemplate());
  tenant = {
    ...key,
    teamId: team.teamId,
    team: { id: team.teamId } as Team,
    template,
    ids: formIds(template),
  };
  ({
    onboardingId,
    token,
    client: { id: clientId },
  } = await sentOnboarding(service, tenant, { client: { name: NAME } }));
  ({ token: otherToken } = await sentOnboarding(service, tenant, { send: { pin: PIN } }));
  await completeForm(service, tenant, token, NAME);
}, 90_000);
afterAll(async () => {
  await service?.stop();
});

describe('the signed PDF of a completed onboarding', () => {
  it('is not ready before the pass: document_ready false, downloads 404 document_not_found', async () => {
    expect((await portal(service, token, 'GET')).body.onboarding.document_ready).toBe(false);
    const answer = await portal(service, token, 'GET', '/document');
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('document_not_found');
  });

  it('is rendered once, recorded with its SHA-256, and the confirmation email carries the copy', async () => {
    expect((await drain(service)).status).toBe(200);
    await drain(service);
    const { rows } = await service.database.pool.query<{ sha256: string }>(
      'select sha256 from onboarding_documents where onboarding_id = $1',
      [onboardingId],
    );
    expect(rows).toHaveLength(1);
    const events = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
    const recorded = events.filter((event) => event.type === 'onboarding_document_rendered');
    expect(recorded).toHaveLength(1);
    expect((recorded[0]!.data as { sha256: string }).sha256).toBe(rows[0]!.sha256);

    const confirmation = (await invites(service, onboardingId)).filter(
      (mail) => mail.kind === 'notification',
    );
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0]!.subject).toBe('Your copy of Client onboarding pack');
    expect(confirmation[0]!.text).toContain(`Full name: ${NAME}`);
    expect(confirmation[0]!.text).toContain('ID document: passport.pdf');
    expect(confirmation[0]!.text).toMatch(/Engagement letter: Signed by Ada 山田 on /);
    expect((await portal(service, token, 'GET')).body.onboarding.document_ready).toBe(true);
  });

  it('leaves the pass nothing to read once made: the read model knows the documented send', async () => {
    const pool = service.database.pool;
    const { rows } = await pool.query<{ send_count: number; documented_send: number | null }>(
      'select send_count, documented_send from onboardings where id = $1',
      [onboardingId],
    );
    expect(rows[0]!.documented_send).toBe(rows[0]!.send_count);
    expect((await pool.query(DUE_DOCUMENTS, [20])).rows).toEqual([]);
    // The pass reads the partial index of completions without a document, not every completion.
    const client = await pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(`explain (costs off) ${DUE_DOCUMENTS}`, [20]);
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('onboardings_document_due');
      await client.query('reset enable_seqscan');
    } finally {
      client.release();
    }
  });

  it('downloads for the team and the client with the same bytes, whose SHA-256 is the recorded one; pdf.js reads every answer and the audit page', async () => {
    const team = await download(`/workspace/v1/onboardings/${onboardingId}/document`, owner.cookie);
    expect(team.status).toBe(200);
    expectDownloadHeaders(team.headers);
    const bytes = Buffer.from(await team.arrayBuffer());
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(team.headers.get('x-document-sha256')).toBe(sha256);
    const { rows } = await service.database.pool.query<{ sha256: string }>(
      'select sha256 from onboarding_documents where onboarding_id = $1',
      [onboardingId],
    );
    expect(sha256).toBe(rows[0]!.sha256);

    const client = await download(`/portal/v1/onboardings/${token}/document`);
    expect(client.status).toBe(200);
    expectDownloadHeaders(client.headers);
    expect(Buffer.from(await client.arrayBuffer()).equals(bytes)).toBe(true);

    const pages = await pdfText(new Uint8Array(bytes));
    const all = pages.join('\n');
    for (const text of [
      'Client onboarding pack',
      'About you',
      'Full name',
      NAME,
      'Documents',
      'passport.pdf',
    ]) {
      expect(all).toContain(text);
    }
    expect(all).toMatch(/Signed by Ada 山田 on/);
    const audit = pages.at(-1)!;
    expect(audit).toContain(AUDIT_TITLE);
    expect(audit).toContain('Engagement letter');
    expect(audit).toContain('Onboarding completed');
    expect(audit).toContain('Step "About you" submitted');
    expect(audit).toContain('SHA-256 of the answers signed');
  });

  it('refuses others: another team (404 target_unavailable), signed out (401), another link (its PIN, then 404)', async () => {
    const path = `/workspace/v1/onboardings/${onboardingId}/document`;
    const foreign = await download(path, stranger.cookie);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { code: string }).code).toBe('target_unavailable');
    expect((await download(path)).status).toBe(401);
    // Another link (with a PIN): its PIN first, then only its own onboarding's document.
    const locked = await portal(service, otherToken, 'GET', '/document');
    expect(locked.status).toBe(401);
    expect(locked.body.code).toBe('pin_required');
    const other = await portal(service, otherToken, 'GET', '/document', { pin: PIN });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('document_not_found');
  });

  it('is erased with the client, like its uploaded files', async () => {
    const erased = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/clients/${clientId}/erase`);
    expect(erased.status).toBe(202);
    const { rowCount } = await service.database.pool.query(
      'select 1 from onboarding_documents where onboarding_id = $1',
      [onboardingId],
    );
    expect(rowCount).toBe(0);
    expect((await download(`/workspace/v1/onboardings/${onboardingId}/document`, owner.cookie)).status).toBe(
      404,
    );
  });
});
