import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { containsAny, exportText, tablesHolding } from '../../helpers/personal-data.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest } from '../../helpers/tenant.ts';
import {
  advanceClock,
  completeForm,
  createClient,
  createOnboarding,
  createTenant,
  drain,
  operatorLink,
  portal,
  sentOnboarding,
  uploadFile,
  type Tenant,
} from '../portal-fixtures.ts';

/**
 * POST /admin/v1/teams/:team_id/clients/:client_id/erase: afterwards no read model row,
 * no API answer, no event payload and no export holds the client's name or email
 * (crypto-shredding: the client's key is deleted; read models drop what they opened).
 */

const NAME = 'Zebulon Quartermaine';
const EMAIL = 'zebulon.quartermaine@erasure.example';
const NEEDLES = [NAME, EMAIL, 'Quartermaine'];

let service: TestService;
let tenant: Tenant;
let clientId: string;
let completedId: string;
let draftId: string;
let token: string;
let erasure: Awaited<ReturnType<typeof adminRequest>>;

const containsPersonalData = (text: string) => containsAny(NEEDLES, text);

/** Every table of the database whose rows, as text, hold the name or the email. */
const tablesHoldingPersonalData = () => tablesHolding(service.database.pool, NEEDLES);

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service, { email_sender_name: 'Acme Accounting' });
  const sent = await sentOnboarding(service, tenant, {
    client: { name: NAME, email: EMAIL, company: `${NAME} Holdings`, notes: `Call ${NAME}` } as never,
  });
  clientId = sent.client.id;
  completedId = sent.onboardingId;
  token = sent.token;
  // The client types its own name and email everywhere it can.
  await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.nickname}`, { body: { value: EMAIL } });
  await uploadFile(service, token, tenant.ids.fields.idDocument, {
    name: `${NAME} passport.pdf`,
    content: `scan of ${NAME}`,
  });
  await completeForm(service, tenant, token, NAME);
  await portal(service, token, 'POST', `/fields/${tenant.ids.fields.agreement}/signature`, {
    body: { signer_name: NAME, signer_email: EMAIL },
  });
  draftId = (await createOnboarding(service, tenant, clientId)).id;
  const reminded = await createOnboarding(service, tenant, clientId);
  await apiRequest(service, tenant.apiKey, 'POST', `/onboardings/${reminded.id}/send`, { body: {} });
  await advanceClock(service, 3 * 24 * 3600);
  await drain(service);

  // The personal data is there before the erasure (so the checks below can fail), sealed:
  // no table holds it in plain text even now.
  expect((await apiRequest(service, tenant.apiKey, 'GET', `/clients/${clientId}`)).body.client.name).toBe(
    NAME,
  );
  expect(await tablesHoldingPersonalData()).toEqual([]);
  expect(
    (await adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`)).body.emails.map(
      (email: { kind: string }) => email.kind,
    ),
  ).toContain('reminder');

  erasure = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/clients/${clientId}/erase`);
});

afterAll(async () => {
  await service?.stop();
});

describe('erasing a client', () => {
  it('answers 202', () => {
    expect(erasure.status).toBe(202);
    expect(erasure.body).toEqual({
      success: true,
      client_id: clientId,
      erased_at: service.clock.now().toISOString(),
      onboardings: 3,
    });
  });

  it('leaves no read model or operational row holding the name or email', async () => {
    expect(await tablesHoldingPersonalData()).toEqual([]);
    const files = await service.database.pool.query('select 1 from onboarding_files where client_id = $1', [
      clientId,
    ]);
    expect(files.rowCount).toBe(0);
  });

  it('leaves the event log unreadable: every personal value is sealed with the deleted key', async () => {
    const { rows } = await service.database.pool.query<{ data: unknown; type: string }>(
      `select type, data from events where stream_id in ($1, $2) order by position`,
      [`client-${clientId}`, `onboarding-${completedId}`],
    );
    expect(rows.map((row) => row.type)).toEqual(
      expect.arrayContaining([
        'client.created',
        'client.erased',
        'answer_saved',
        'signature.signed',
        'file.uploaded',
      ]),
    );
    for (const row of rows) expect(containsPersonalData(JSON.stringify(row.data)), row.type).toBe(false);
    const created = rows.find((row) => row.type === 'client.created')!.data as { name: unknown };
    expect(await service.context.vault.open(created.name as never)).toBeNull();
  });

  it('no API answer holds them: events, onboardings, clients, responses, portal, operator link and emails', async () => {
    const answers = await Promise.all([
      apiRequest(service, tenant.apiKey, 'GET', '/events?limit=100'),
      apiRequest(service, tenant.apiKey, 'GET', '/onboardings?archived=all&limit=100'),
      apiRequest(service, tenant.apiKey, 'GET', `/onboardings/${completedId}`),
      apiRequest(service, tenant.apiKey, 'GET', '/clients?limit=100'),
      apiRequest(service, tenant.apiKey, 'GET', `/clients/${clientId}`),
      apiRequest(service, tenant.apiKey, 'GET', `/clients?email=${encodeURIComponent(EMAIL)}`),
      apiRequest(service, tenant.apiKey, 'GET', `/responses?onboarding_id=${completedId}`),
      portal(service, token, 'GET'),
      operatorLink(service, completedId),
      adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`),
    ]);
    for (const answer of answers) expect(containsPersonalData(JSON.stringify(answer.body))).toBe(false);
    const [events, list, get, clients, client, byEmail, responses, portalAnswer, link, emails] = answers;
    expect(events.body.events.map((event: { type: string }) => event.type)).toContain('client_erased');
    expect(list.body.onboardings.map((item: { id: string }) => item.id)).not.toEqual(
      expect.arrayContaining([completedId]),
    );
    expect(
      list.body.onboardings.some((item: { id: string }) => [completedId, draftId].includes(item.id)),
    ).toBe(false);
    expect(get.status).toBe(404);
    expect(clients.body.clients.some((item: { id: string }) => item.id === clientId)).toBe(false);
    expect(client.status).toBe(404);
    expect(byEmail.body).toEqual({ clients: [], total: 0 });
    expect(responses.status).toBe(404);
    expect(portalAnswer.status).toBe(404);
    expect(portalAnswer.body.code).toBe('link_inactive');
    expect(link.body.token).toBeNull();
    for (const email of emails.body.emails)
      expect(email).toMatchObject({ to: '', status: expect.any(String) });
  });

  it('no export line holds them', async () => {
    const text = await exportText(service.context.eventStore);
    expect(text).toContain('client.erased');
    expect(containsPersonalData(text)).toBe(false);
  });

  it('a rebuild of every read model after the erasure holds them nowhere either', async () => {
    await rebuildProjections(service.database.pool, service.context.eventStore, allProjections);
    expect(await tablesHoldingPersonalData()).toEqual([]);
    const row = await service.database.pool.query(
      'select name, email, erased_at from clients where id = $1',
      [clientId],
    );
    expect(row.rows[0]).toMatchObject({ name: null, email: null, erased_at: expect.any(Date) });
  });

  it('410 client_erasure_pending for a new onboarding of the client; erasing again answers 202', async () => {
    const create = await apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
      body: { template_id: tenant.template.id, client_id: clientId },
    });
    expect(create.status).toBe(410);
    expect(create.body.code).toBe('client_erasure_pending');
    const send = await apiRequest(service, tenant.apiKey, 'POST', `/onboardings/${draftId}/send`, {
      body: {},
    });
    expect(send.status).toBe(410);
    expect(send.body.code).toBe('client_erasure_pending');
    const again = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/clients/${clientId}/erase`);
    expect(again.status).toBe(202);
  });

  it('404 for an unknown client, another team’s client or an unknown team', async () => {
    const other = await createTenant(service);
    const foreign = await createClient(service, other);
    const unknown = await adminRequest(
      service,
      'POST',
      `/teams/${tenant.teamId}/clients/${randomUUID()}/erase`,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('client_not_found');
    const wrongTeam = await adminRequest(
      service,
      'POST',
      `/teams/${tenant.teamId}/clients/${foreign.id}/erase`,
    );
    expect(wrongTeam.body.code).toBe('client_not_found');
    const noTeam = await adminRequest(service, 'POST', `/teams/${randomUUID()}/clients/${foreign.id}/erase`);
    expect(noTeam.status).toBe(404);
    expect(noTeam.body.code).toBe('team_not_found');
    // The other team's client was not touched.
    expect((await apiRequest(service, other.apiKey, 'GET', `/clients/${foreign.id}`)).status).toBe(200);
  });

  it('frees the email: the team can create a new client with it (run last: it writes the address again)', async () => {
    const answer = await apiRequest(service, tenant.apiKey, 'POST', '/clients', {
      body: { name: 'New Person', email: EMAIL },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.client.id).not.toBe(clientId);
  });
});
