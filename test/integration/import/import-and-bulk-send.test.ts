import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importClients, planImport } from '../../../services/clients/import/index.ts';
import { guessMapping } from '../../../services/clients/import/column-mapping.ts';
import { readCsv } from '../../../services/clients/import/csv-table.ts';
import { createClient } from '../../../services/clients/create-client.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createTemplate, updateTeam } from '../../helpers/tenant.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';

/*
 * Import clients from a CSV and send them one template in one action, over real HTTP and
 * PostgreSQL (docs/decisions/0087, 0088): 50 rows with 3 bad and 2 repeated emails give 45
 * clients; a failure part-way leaves no new client; the send checks the monthly limit as a
 * manual send and names each refusal; a double click sends once.
 */

let service: TestService;
let owner: Browser;
let teamId: string;
let memberId: string;
let templateId: string;

/** 50 data rows, semicolon separated with a BOM (as a spreadsheet in many locales saves). */
function fiftyRows(): string {
  const lines = ['\uFEFFFull name;E-mail;Company;Phone;Language'];
  for (let n = 1; n <= 45; n++)
    lines.push(
      `Client ${n};client${n}@import.example;Firm ${n};+44 20 7946 ${String(n).padStart(4, '0')};${n % 2 ? 'de-DE' : ''}`,
    );
  lines.splice(8, 0, 'Bob;bob@;;;'); // row 9
  lines.splice(15, 0, ';noname@import.example;;;'); // row 16
  lines.splice(30, 0, 'Klingon;k@import.example;;;tlh'); // row 31
  lines.push('Client Three Again;CLIENT3@import.example;;;'); // row 50
  lines.push('"Client 4; duplicate";client4@import.example ;Other firm;;'); // row 51
  return lines.join('\r\n');
}

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner, teamId, memberId } = await signUp(
    service,
    'import-owner@example.com',
    'a long import passphrase',
  ));
  templateId = (await createTemplate(service, teamId, { name: 'Welcome pack' })).id;
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

const totalClients = async () =>
  (await owner.call('GET', '/workspace/v1/clients?limit=1')).body.total as number;

describe('client import and bulk send', () => {
  it('previews the mapping, the 3 bad rows in words and the 2 merges', async () => {
    const preview = await owner.call('POST', '/workspace/v1/clients/import/preview', { csv: fiftyRows() });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.mapping).toEqual({ name: 0, email: 1, company: 2, phone: 3, locale: 4 });
    expect(preview.body.rows).toBe(50);
    expect(preview.body.clients).toHaveLength(45);
    expect(preview.body.problems.map((problem: { text: string }) => problem.text)).toEqual([
      "Row 9: the email 'bob@' is not an email address",
      'Row 16: the name is missing',
      "Row 31: the language 'tlh' is not one of en-US, en-GB, es-ES, fr-FR, de-DE, pt-BR, it-IT, nl-NL, ja-JP",
    ]);
    expect(preview.body.merges).toEqual([
      { row: 50, into: 4, email: 'client3@import.example' },
      { row: 51, into: 5, email: 'client4@import.example' },
    ]);
  });

  it('a failure part-way leaves zero new clients', async () => {
    const table = readCsv(fiftyRows());
    const plan = planImport(table, guessMapping(table.headers));
    let calls = 0;
    const failing: typeof createClient = async (...args) => {
      if (++calls === 20) throw new Error('the database went away');
      return createClient(...args);
    };
    const before = await totalClients();
    await expect(
      importClients(
        service.context,
        teamId,
        plan,
        () => memberMetadata({ id: 'forced-failure' }, memberId),
        failing,
      ),
    ).rejects.toThrow('the database went away');
    expect(calls).toBe(20);
    expect(await totalClients()).toBe(before);
  });

  it('imports 45 clients, then sends one template to them: the monthly limit refuses some, each named', async () => {
    const csv = fiftyRows();
    const mapping = { name: 0, email: 1, company: 2, phone: 3, locale: 4 };
    const imported = await owner.call('POST', '/workspace/v1/clients/import', { csv, mapping });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ created: 45, kept: 0 });
    expect(await totalClients()).toBe(45);
    const again = await owner.call('POST', '/workspace/v1/clients/import', { csv, mapping });
    expect(again.body).toMatchObject({ created: 0, kept: 45 });
    expect(await totalClients()).toBe(45);

    const usage = async () => (await owner.call('GET', '/workspace/v1/onboardings/usage')).body;
    const before = await usage();
    await updateTeam(service, teamId, {
      monthly_onboarding_limit: before.used + 40,
      new_recipient_cap: 1000,
    });
    const ids = imported.body.clients.map((client: { client_id: string }) => client.client_id);
    const body = {
      template_id: templateId,
      client_ids: ids,
      due_on: '2031-01-31',
      idempotency_key: 'send-1',
    };
    // A double click: two requests with one key send once and answer the same summary.
    const [first, second] = await Promise.all([
      owner.call('POST', '/workspace/v1/onboardings/bulk-send', body),
      owner.call('POST', '/workspace/v1/onboardings/bulk-send', body),
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(first.body).toMatchObject({ sent: 40, refused: 5 });
    const refused = first.body.results.filter((result: { outcome: string }) => result.outcome === 'refused');
    expect(refused.map((result: { client_id: string }) => result.client_id)).toEqual(ids.slice(40));
    for (const result of refused) {
      expect(result).toMatchObject({
        code: 'limit_reached',
        error: 'Monthly onboarding limit reached',
        onboarding_id: null,
      });
    }
    expect((await usage()).used).toBe(before.used + 40);
    const list = await owner.call('GET', '/workspace/v1/onboardings?limit=100');
    expect(list.body.total).toBe(40);
    const invites = await service.context.pool.query(
      `select count(*)::int as n from mail_outbox where kind = 'invite' and team_id = $1`,
      [teamId],
    );
    expect(invites.rows[0].n).toBe(40);
  });
});
