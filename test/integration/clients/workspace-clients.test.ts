import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSealed } from '../../../shared/privacy/personal-data-vault.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createApiKey } from '../../helpers/tenant.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';

/*
 * The workspace's clients over real HTTP and PostgreSQL: search, create with the API's
 * duplicate-email rule, update (client.updated, sealed, read by the public API), the email
 * rule under a race, erase; every route scoped by team and refused without a session.
 */

let service: TestService;
let owner: Browser;
let member: Browser;
let teamId: string;
let otherOwner: Browser;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner, teamId } = await signUp(service, 'clients-owner@example.com', 'a long clients passphrase'));
  ({ browser: member } = await addMember(service, owner, 'clients-member@example.com', 'member'));
  ({ owner: otherOwner } = await signUp(service, 'clients-other@example.com', 'another clients passphrase'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

async function create(who: Browser, body: Record<string, unknown>) {
  const answer = await who.call('POST', '/workspace/v1/clients', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.client as { id: string; name: string; email: string };
}

const clientEvents = async (clientId: string) =>
  (await service.context.eventStore.readStream(`client-${clientId}`)).map((event) => event.type);

describe('workspace clients', () => {
  it('creates, refuses a used email in words, and searches name, email and company', async () => {
    const ada = await create(member, {
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      company: 'Analytical',
    });
    expect(ada.email).toBe('ada@example.com');
    await create(owner, { name: 'Grace Hopper', email: 'grace@navy.example', company: 'Navy' });

    const duplicate = await member.call('POST', '/workspace/v1/clients', {
      name: 'Other',
      email: 'ada@example.com',
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({
      code: 'email_taken',
      error: 'Another client of your team already has this email address',
    });

    const byCompany = await member.call('GET', '/workspace/v1/clients?q=analyt');
    expect(byCompany.body.data.map((client: { name: string }) => client.name)).toEqual(['Ada Lovelace']);
    const byEmail = await member.call('GET', '/workspace/v1/clients?q=navy.example');
    expect(byEmail.body.data.map((client: { name: string }) => client.name)).toEqual(['Grace Hopper']);
    const page = await member.call('GET', '/workspace/v1/clients?limit=1&offset=1');
    expect(page.body.total, JSON.stringify(page.body)).toBe(2);
    expect(page.body.total_capped).toBe(false);
    expect(page.body.data).toHaveLength(1);
    const literal = await member.call('GET', '/workspace/v1/clients?q=%25');
    expect(literal.body.total).toBe(0);
  });

  it('updates with client.updated (sealed), shown by the public API; a used email is refused', async () => {
    const client = await create(member, { name: 'Mary Somerville', email: 'mary@example.com' });
    await create(member, { name: 'Taken', email: 'taken@example.com' });

    const updated = await member.call('PATCH', `/workspace/v1/clients/${client.id}`, {
      name: 'Mary F. Somerville',
      email: 'mary.s@example.com',
      company: 'Royal Society',
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.client).toMatchObject({
      name: 'Mary F. Somerville',
      email: 'mary.s@example.com',
      company: 'Royal Society',
    });
    expect(await clientEvents(client.id)).toEqual(['client.created', 'client.updated']);
    const [, event] = await service.context.eventStore.readStream(`client-${client.id}`);
    const changes = (event!.data as { changes: Record<string, unknown> }).changes;
    expect(Object.keys(changes).sort()).toEqual(['company', 'email', 'name']);
    // Sealed as client.created seals: no plain value in the log.
    expect(JSON.stringify(changes)).not.toContain('Somerville');

    const key = await createApiKey(service, teamId, ['clients:read', 'clients:write']);
    const publicGet = await apiRequest(service, key.apiKey, 'GET', `/clients/${client.id}`);
    expect(publicGet.body.client).toMatchObject({ name: 'Mary F. Somerville', email: 'mary.s@example.com' });
    // The read model keeps the update's envelopes as they are: nothing opened, nothing plain at rest.
    const stored = await service.context.pool.query<Record<string, string>>(
      'select name, email, company from clients where id = $1',
      [client.id],
    );
    const row = stored.rows[0]!;
    expect(JSON.stringify(row)).not.toMatch(/Somerville|mary\.s@|Royal Society/);
    for (const column of ['name', 'email', 'company']) expect(isSealed(JSON.parse(row[column]!))).toBe(true);

    // The old address is free again; the new one is held.
    const reuse = await apiRequest(service, key.apiKey, 'POST', '/clients', {
      body: { name: 'New Mary', email: 'mary@example.com' },
    });
    expect(reuse.status).toBe(201);
    const holder = await apiRequest(service, key.apiKey, 'POST', '/clients', {
      body: { name: 'X', email: 'mary.s@example.com' },
    });
    expect(holder.status).toBe(200);
    expect(holder.body.client.id).toBe(client.id);

    const taken = await member.call('PATCH', `/workspace/v1/clients/${client.id}`, {
      email: 'taken@example.com',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('email_taken');
    expect(await clientEvents(client.id)).toEqual(['client.created', 'client.updated']);

    // In the events feed as an internal event, naming the changed fields only.
    const { rows } = await service.context.pool.query(
      `select type, data from audit_events
       where team_id = $1 and type = 'client_updated' and data->>'client_id' = $2`,
      [teamId, client.id],
    );
    expect(rows).toEqual([
      { type: 'client_updated', data: { client_id: client.id, changed: ['company', 'email', 'name'] } },
    ]);
  });

  it("sets a client's language, date format and time zone; none given is the team's, not chosen", async () => {
    const plain = await create(member, { name: 'Emmy Noether', email: 'emmy@example.com' });
    expect(plain).toMatchObject({
      locale: 'en-US',
      date_format: 'MM/DD/YYYY',
      timezone: 'UTC',
      locale_chosen: false,
      date_format_chosen: false,
    });
    const chosen = await create(member, {
      name: 'Kiyoshi Ito',
      email: 'kiyoshi@example.com',
      locale: 'ja-JP',
      date_format: 'YYYY-MM-DD',
      timezone: 'Asia/Tokyo',
    });
    expect(chosen).toMatchObject({ locale: 'ja-JP', locale_chosen: true, date_format_chosen: true });

    const edited = await member.call('PATCH', `/workspace/v1/clients/${plain.id}`, {
      locale: 'de-DE',
      date_format: 'DD.MM.YYYY',
      timezone: 'Europe/Berlin',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.client).toMatchObject({
      locale: 'de-DE',
      date_format: 'DD.MM.YYYY',
      timezone: 'Europe/Berlin',
      locale_chosen: true,
      date_format_chosen: true,
    });
    const cleared = await member.call('PATCH', `/workspace/v1/clients/${plain.id}`, { locale: null });
    expect(cleared.body.client).toMatchObject({
      locale: 'en-US',
      locale_chosen: false,
      date_format: 'DD.MM.YYYY',
    });
    const unsupported = await member.call('PATCH', `/workspace/v1/clients/${plain.id}`, { locale: 'sv-SE' });
    expect(unsupported.status).toBe(400);
    const badZone = await member.call('PATCH', `/workspace/v1/clients/${plain.id}`, {
      timezone: 'Mars/Base',
    });
    expect(badZone.status).toBe(400);

    // The public API's client keeps them input-only.
    const key = await createApiKey(service, teamId, ['clients:read']);
    const publicGet = await apiRequest(service, key.apiKey, 'GET', `/clients/${plain.id}`);
    expect(Object.keys(publicGet.body.client)).not.toContain('locale');
    expect(Object.keys(publicGet.body.client)).not.toContain('locale_chosen');
  });

  it('of two updates racing to one email exactly one wins', async () => {
    const first = await create(member, { name: 'Racer One', email: 'racer1@example.com' });
    const second = await create(member, { name: 'Racer Two', email: 'racer2@example.com' });
    const answers = await Promise.all([
      member.call('PATCH', `/workspace/v1/clients/${first.id}`, { email: 'prize@example.com' }),
      owner.call('PATCH', `/workspace/v1/clients/${second.id}`, { email: 'prize@example.com' }),
      member.call('POST', '/workspace/v1/clients', { name: 'Racer Three', email: 'prize@example.com' }),
    ]);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 409)).toHaveLength(2);
    expect(statuses.filter((status) => status === 200 || status === 201)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect(refused.body.code).toBe('email_taken');
    }
    const holders = await member.call('GET', '/workspace/v1/clients?q=prize%40example.com');
    expect(holders.body.total).toBe(1);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const client = await create(member, { name: 'Unchanged', email: 'unchanged@example.com' });
    for (const body of [{ email: 'not an email' }, { name: '' }, {}, { phone: 42 }]) {
      const answer = await member.call('PATCH', `/workspace/v1/clients/${client.id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
    }
    const missing = await member.call('POST', '/workspace/v1/clients', { name: 'No email' });
    expect(missing.status).toBe(400);
    expect(await clientEvents(client.id)).toEqual(['client.created']);
    const blocked = await member.call('PATCH', `/workspace/v1/clients/${client.id}`, {
      notes: 'see bit.ly/x',
    });
    expect(blocked.status).toBe(422);
    expect(await clientEvents(client.id)).toEqual(['client.created']);
  });

  it("answers 404 for another team's client and 401 without a session", async () => {
    const client = await create(member, { name: 'Private', email: 'private@example.com' });
    for (const [method, path, body] of [
      ['GET', `/workspace/v1/clients/${client.id}`, undefined],
      ['PATCH', `/workspace/v1/clients/${client.id}`, { name: 'Stolen' }],
      ['POST', `/workspace/v1/clients/${client.id}/erase`, undefined],
    ] as const) {
      expect((await otherOwner.call(method, path, body)).status).toBe(404);
      expect((await new Browser(service).call(method, path, body)).status).toBe(401);
    }
    const others = await otherOwner.call('GET', '/workspace/v1/clients?q=private');
    expect(others.body.total).toBe(0);
    expect(await clientEvents(client.id)).toEqual(['client.created']);
  });

  it('erases like the operator route: gone from every list, the email free again', async () => {
    const client = await create(member, { name: 'Erase Me', email: 'erase.me@example.com' });
    await member.call('PATCH', `/workspace/v1/clients/${client.id}`, { email: 'erase.me2@example.com' });
    const erased = await member.call('POST', `/workspace/v1/clients/${client.id}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ client_id: client.id, onboardings: 0 });
    expect((await member.call('GET', `/workspace/v1/clients/${client.id}`)).status).toBe(404);
    expect(await clientEvents(client.id)).toEqual(['client.created', 'client.updated', 'client.erased']);
    // The current (updated) address is released by the erasure.
    await create(member, { name: 'Fresh', email: 'erase.me2@example.com' });
    const { rows } = await service.context.pool.query('select name, email from clients where id = $1', [
      client.id,
    ]);
    expect(rows[0]).toEqual({ name: null, email: null });
  });
});
