import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createApiKey, createTeamWithKey, type TeamWithKey } from '../../helpers/tenant.ts';

/** POST /api/v1/clients, GET /api/v1/clients, GET /api/v1/clients/:id over real HTTP and PostgreSQL. */

let service: TestService;
let team: TeamWithKey;
let other: TeamWithKey;
let emailCounter = 0;

const uniqueEmail = () => `client${++emailCounter}@example.com`;
const create = (body: unknown, key = team.apiKey) => apiRequest(service, key, 'POST', '/clients', { body });
const list = (query = '', key = team.apiKey) => apiRequest(service, key, 'GET', `/clients${query}`);
const get = (id: string, key = team.apiKey) => apiRequest(service, key, 'GET', `/clients/${id}`);

async function readModelRow(id: string) {
  const result = await service.database.pool.query('select * from clients where id = $1', [id]);
  return result.rows[0];
}

async function clientCreatedEvents(teamId: string) {
  const result = await service.database.pool.query(
    `select * from events where type = 'client.created' and data->>'team_id' = $1`,
    [teamId],
  );
  return result.rows;
}

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  team = await createTeamWithKey(service, {
    locale: 'fr-FR',
    date_format: 'DD.MM.YYYY',
    timezone: 'Europe/Paris',
  });
  other = await createTeamWithKey(service);
});

afterAll(async () => {
  await service?.stop();
});

describe('POST /api/v1/clients', () => {
  it('creates a client: 201 with the client, email trimmed and lowercased, notes trimmed', async () => {
    const answer = await create({
      name: 'Ada Lovelace',
      email: '  Ada.Lovelace@Example.COM ',
      company: 'Analytical Engines',
      phone: '+44 20 7946 0000',
      notes: '  Prefers mornings.  \n',
      custom_fields: { tier: 'gold', seats: 3 },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      client: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Ada Lovelace',
        email: 'ada.lovelace@example.com',
        company: 'Analytical Engines',
        phone: '+44 20 7946 0000',
        notes: 'Prefers mornings.',
        custom_fields: { tier: 'gold', seats: 3 },
        created_at: service.clock.now().toISOString(),
      },
    });
    // Read your writes: the next GET sees it.
    const read = await get(answer.body.client.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(answer.body);
  });

  it('defaults: company, phone, notes null, custom_fields {}; locale, date_format, timezone from the team', async () => {
    const answer = await create({ name: 'Bob', email: uniqueEmail() });
    expect(answer.status).toBe(201);
    expect(answer.body.client).toMatchObject({ company: null, phone: null, notes: null, custom_fields: {} });
    expect(await readModelRow(answer.body.client.id)).toMatchObject({
      locale: 'fr-FR',
      date_format: 'DD.MM.YYYY',
      timezone: 'Europe/Paris',
    });
  });

  it('takes locale, date_format and timezone when given; locale is not validated (an unsupported one is stored)', async () => {
    const answer = await create({
      name: 'Carla',
      email: uniqueEmail(),
      locale: 'xx-YY',
      date_format: 'YYYY-MM-DD',
      timezone: 'America/New_York',
    });
    expect(answer.status).toBe(201);
    expect(await readModelRow(answer.body.client.id)).toMatchObject({
      locale: 'xx-YY',
      date_format: 'YYYY-MM-DD',
      timezone: 'America/New_York',
    });
  });

  it('null or empty locale, date_format, timezone and null custom_fields use the defaults', async () => {
    const answer = await create({
      name: 'Dana',
      email: uniqueEmail(),
      locale: null,
      date_format: '',
      timezone: null,
      custom_fields: null,
      company: null,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.client).toMatchObject({ company: null, custom_fields: {} });
    expect(await readModelRow(answer.body.client.id)).toMatchObject({
      locale: 'fr-FR',
      date_format: 'DD.MM.YYYY',
      timezone: 'Europe/Paris',
    });
  });

  it('ignores unknown keys', async () => {
    const answer = await create({
      name: 'Eve',
      email: uniqueEmail(),
      id: 'mine',
      team_id: other.teamId,
      x: 1,
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body.client).sort()).toEqual(
      ['company', 'created_at', 'custom_fields', 'email', 'id', 'name', 'notes', 'phone'].sort(),
    );
    expect(answer.body.client.id).not.toBe('mine');
    expect((await get(answer.body.client.id)).status).toBe(200);
    expect((await get(answer.body.client.id, other.apiKey)).status).toBe(404);
  });

  it('a second create with the same email (any case, any spaces) answers 200 with the existing client and creates nothing', async () => {
    const email = uniqueEmail();
    const first = await create({ name: 'Frank', email, company: 'First' });
    expect(first.status).toBe(201);
    const before = (await clientCreatedEvents(team.teamId)).length;
    const second = await create({
      name: 'Someone Else',
      email: `  ${email.toUpperCase()}  `,
      company: 'Second',
    });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await clientCreatedEvents(team.teamId)).length).toBe(before);
    expect((await list(`?email=${encodeURIComponent(email)}`)).body.total).toBe(1);
  });

  it('the same email in another team is another client (unique per team)', async () => {
    const email = uniqueEmail();
    const mine = await create({ name: 'Gina', email });
    const theirs = await create({ name: 'Gina', email }, other.apiKey);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.client.id).not.toBe(mine.body.client.id);
  });

  it('20 concurrent creates of one email: one client, one client.created event, every answer the same client id', async () => {
    const racer = await createTeamWithKey(service);
    const email = 'race@example.com';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        create({ name: `Racer ${i}`, email: i % 2 ? email.toUpperCase() : email }, racer.apiKey),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(19);
    const ids = new Set(answers.map((answer) => answer.body.client.id));
    expect(ids.size).toBe(1);
    const events = await clientCreatedEvents(racer.teamId);
    expect(events).toHaveLength(1);
    expect(events[0].data.client_id).toBe([...ids][0]);
    const listed = await list('', racer.apiKey);
    expect(listed.body.total).toBe(1);
    expect(listed.body.clients[0].id).toBe([...ids][0]);
  });

  it('keeps personal data out of the event log in plain text (sealed with the client key)', async () => {
    const email = uniqueEmail();
    const answer = await create({ name: 'Secret Sam', email, notes: 'private notes' });
    const result = await service.database.pool.query(
      `select data::text as data from events where type = 'client.created' and data->>'client_id' = $1`,
      [answer.body.client.id],
    );
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0].data).not.toContain('Secret Sam');
    expect(result.rows[0].data).not.toContain(email);
    expect(result.rows[0].data).not.toContain('private notes');
  });

  describe('400 name and email are required', () => {
    it.each([
      ['no name', { email: 'x@example.com' }],
      ['no email', { name: 'X' }],
      ['neither', {}],
      ['null name', { name: null, email: 'x@example.com' }],
      ['empty name', { name: '', email: 'x@example.com' }],
      ['blank name', { name: '   ', email: 'x@example.com' }],
      ['empty email', { name: 'X', email: '' }],
      ['blank email', { name: 'X', email: '  ' }],
      ['number name', { name: 42, email: 'x@example.com' }],
      ['number email', { name: 'X', email: 42 }],
      ['missing email and a too long name', { name: 'x'.repeat(201) }],
      ['a JSON array', [{ name: 'X', email: 'x@example.com' }]],
      ['JSON null', null],
      ['a JSON string', JSON.stringify('name')],
      ['a JSON number', '42'],
    ])('%s', async (_label, body) => {
      const answer = await create(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'name and email are required' });
    });

    it('no body at all', async () => {
      const answer = await apiRequest(service, team.apiKey, 'POST', '/clients');
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'name and email are required' });
    });

    it('an empty JSON body', async () => {
      const answer = await apiRequest(service, team.apiKey, 'POST', '/clients', {
        headers: { 'content-type': 'application/json' },
        body: '',
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'name and email are required' });
    });
  });

  it.each([
    'not-an-email',
    'a@b',
    'a b@example.com',
    'a@@example.com',
    '@example.com',
    'a@example.',
    'a@.com',
    'a@example.123',
  ])('400 Invalid email address: %j', async (email) => {
    const answer = await create({ name: 'X', email });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'Invalid email address' });
  });

  it.each([
    ['company', 5, 'company must be a string or null'],
    ['company', true, 'company must be a string or null'],
    ['company', { a: 1 }, 'company must be a string or null'],
    ['company', ['a'], 'company must be a string or null'],
    ['phone', 5551234, 'phone must be a string or null'],
    ['notes', false, 'notes must be a string or null'],
    ['locale', 5, 'locale must be a string'],
    ['locale', { a: 1 }, 'locale must be a string'],
    ['date_format', 1, 'date_format must be a string'],
    ['date_format', 'dd/mm/yy', 'date_format must be one of MM/DD/YYYY, DD/MM/YYYY, YYYY-MM-DD, DD.MM.YYYY'],
    ['timezone', 60, 'timezone must be a string'],
    ['timezone', 'Mars/Olympus_Mons', 'timezone must be a valid IANA time zone name'],
    ['custom_fields', 'x', 'custom_fields must be an object'],
    ['custom_fields', [1, 2], 'custom_fields must be an object'],
    ['custom_fields', 7, 'custom_fields must be an object'],
  ])('400 for %s = %j: %s', async (field, value, message) => {
    const answer = await create({ name: 'X', email: uniqueEmail(), [field]: value });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: message });
  });

  it.each([
    ['name', 200, 'name must be 200 characters or fewer'],
    ['company', 200, 'company must be 200 characters or fewer'],
    ['phone', 50, 'phone must be 50 characters or fewer'],
    ['notes', 2000, 'notes must be 2000 characters or fewer'],
  ])('%s: %i characters pass, one more is 400 "%s"', async (field, max, message) => {
    const ok = await create({ name: 'X', email: uniqueEmail(), [field]: '7'.repeat(max) });
    expect(ok.status).toBe(201);
    const tooLong = await create({ name: 'X', email: uniqueEmail(), [field]: '7'.repeat(max + 1) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ error: message });
  });

  it('counts characters, not UTF-16 units (200 emoji are a valid name)', async () => {
    const answer = await create({ name: '😀'.repeat(200), email: uniqueEmail() });
    expect(answer.status).toBe(201);
  });

  it('notes are measured after trimming', async () => {
    const answer = await create({ name: 'X', email: uniqueEmail(), notes: `   ${'n'.repeat(2000)}   ` });
    expect(answer.status).toBe(201);
    expect(answer.body.client.notes).toBe('n'.repeat(2000));
  });

  describe('422 link_blocked', () => {
    it.each([
      ['name', { name: 'Ada https://bit.ly/3xYz' }],
      ['company', { company: 'Visit tinyurl.com/abc' }],
      ['notes', { notes: 'see WWW.T.CO/xyz for details' }],
      ['custom_fields value', { custom_fields: { site: 'rb.gy/abc' } }],
      ['nested custom_fields value', { custom_fields: { links: [{ url: 'https://is.gd/x' }] } }],
    ])('a short link in %s: 422 with error and code only, nothing created', async (_label, fields) => {
      const email = uniqueEmail();
      const answer = await create({ name: 'Ada', email, ...fields });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        error: 'Short links are not allowed in client details',
        code: 'link_blocked',
      });
      expect((await list(`?email=${email}`)).body.total).toBe(0);
      // The email was not reserved: a clean create of it succeeds.
      expect((await create({ name: 'Ada', email })).status).toBe(201);
    });

    it('phone and ordinary links are not blocked', async () => {
      const answer = await create({
        name: 'Ada',
        email: uniqueEmail(),
        phone: 'bit.ly',
        notes: 'see https://example.com/docs and rabbit.ly',
      });
      expect(answer.status).toBe(201);
    });

    it('400 checks come before the short-link check', async () => {
      const answer = await create({ name: 'bit.ly/x', email: 'nope' });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'Invalid email address' });
    });
  });

  it('403 api_key_scope_denied for a key without clients:write', async () => {
    const readOnly = await createApiKey(service, team.teamId, ['clients:read']);
    const answer = await create({ name: 'X', email: uniqueEmail() }, readOnly.apiKey);
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('api_key_scope_denied');
  });
});

describe('GET /api/v1/clients', () => {
  let listTeam: TeamWithKey;
  const names = ['One', 'Two', 'Three', 'Four', 'Five'];
  const ids: string[] = [];

  beforeAll(async () => {
    listTeam = await createTeamWithKey(service);
    for (const [i, name] of names.entries()) {
      // Two clients share a created_at: the later one still lists first.
      if (i !== 3) service.clock.advance(60);
      const answer = await create({ name, email: `${name.toLowerCase()}@list.example.com` }, listTeam.apiKey);
      expect(answer.status).toBe(201);
      ids.push(answer.body.client.id);
    }
  });

  it('lists newest first with total; default limit 50 and offset 0', async () => {
    const answer = await list('', listTeam.apiKey);
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(5);
    expect(answer.body.clients.map((client: { name: string }) => client.name)).toEqual([
      'Five',
      'Four',
      'Three',
      'Two',
      'One',
    ]);
    expect(answer.body.clients[0]).toEqual((await get(ids[4]!, listTeam.apiKey)).body.client);
  });

  it('limit and offset page through; total stays the whole count', async () => {
    const page = await list('?limit=2&offset=1', listTeam.apiKey);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(5);
    expect(page.body.clients.map((client: { name: string }) => client.name)).toEqual(['Four', 'Three']);
    const past = await list('?offset=10', listTeam.apiKey);
    expect(past.body).toEqual({ clients: [], total: 5 });
  });

  it('the email filter is exact and case-insensitive', async () => {
    const exact = await list('?email=TWO@List.Example.com', listTeam.apiKey);
    expect(exact.body.total).toBe(1);
    expect(exact.body.clients[0].name).toBe('Two');
    expect((await list('?email=two', listTeam.apiKey)).body).toEqual({ clients: [], total: 0 });
    expect((await list('?email=%25list.example.com', listTeam.apiKey)).body.total).toBe(0);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'limit=1.5'])('400 for %s', async (query) => {
    const answer = await list(`?${query}`, listTeam.apiKey);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'limit must be between 1 and 100' });
  });

  it('400 for a negative offset', async () => {
    const answer = await list('?offset=-1', listTeam.apiKey);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'offset must be a whole number of 0 or more' });
  });

  it("only lists the key's team", async () => {
    const theirs = await list('', other.apiKey);
    const theirIds = theirs.body.clients.map((client: { id: string }) => client.id);
    for (const id of ids) expect(theirIds).not.toContain(id);
    expect((await list('?email=one@list.example.com', other.apiKey)).body).toEqual({ clients: [], total: 0 });
  });

  it('leaves erased clients out of lists and gets', async () => {
    const erasedTeam = await createTeamWithKey(service);
    const kept = await create({ name: 'Kept', email: 'kept@example.com' }, erasedTeam.apiKey);
    const gone = await create({ name: 'Gone', email: 'gone@example.com' }, erasedTeam.apiKey);
    await service.database.pool.query('update clients set erased_at = now() where id = $1', [
      gone.body.client.id,
    ]);
    const answer = await list('', erasedTeam.apiKey);
    expect(answer.body.total).toBe(1);
    expect(answer.body.clients[0].id).toBe(kept.body.client.id);
    expect((await get(gone.body.client.id, erasedTeam.apiKey)).status).toBe(404);
  });
});

describe('GET /api/v1/clients/:id', () => {
  it("404 Client not found for an unknown id, another team's client and a non-UUID id, all alike", async () => {
    const mine = await create({ name: 'Hana', email: uniqueEmail() });
    const answers = await Promise.all([
      get('00000000-0000-4000-8000-000000000000'),
      get(mine.body.client.id, other.apiKey),
      get('not-a-uuid'),
      get('1'),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'Client not found' });
    }
  });

  it('200 with the client for its own team', async () => {
    const mine = await create({ name: 'Ivo', email: uniqueEmail() });
    const answer = await get(mine.body.client.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ client: mine.body.client });
  });
});
