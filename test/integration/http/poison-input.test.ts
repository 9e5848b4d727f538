import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, type HttpAnswer } from '../../helpers/tenant.ts';
import { createClient, createTenant, portal, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/**
 * Requests whose values PostgreSQL cannot store (NUL, unpaired surrogates, year 0, int4
 * overflow) once made a projection fail on their event for ever. Each answers 400 in its
 * route's error form and appends nothing to the event log.
 */

let service: TestService;
let tenant: Tenant;
let token: string;
let clientId: string;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service);
  ({ token } = await sentOnboarding(service, tenant));
  clientId = (await createClient(service, tenant)).id;
});

afterAll(async () => {
  await service?.stop();
});

const head = () => service.context.eventStore.headPosition();

/** Sends the request and checks it answers 400 and leaves the log's head where it was. */
async function refusedWithoutAppend(send: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
  const before = await head();
  const answer = await send();
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(await head()).toBe(before);
  return answer;
}

const invalidBody = {
  error: expect.any(String),
  code: 'invalid_body',
  message: expect.any(String),
  retryable: false,
  request_id: expect.any(String),
  // Where the value was refused (body/value, params/field_id, ...).
  details: { issues: expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]) },
};

describe('POST /api/v1/clients', () => {
  const valid = () => ({ name: 'Ada Lovelace', email: `ada-${Math.random()}@example.com` });
  const poisons: [string, Record<string, unknown>][] = [
    ['NUL in name', { name: 'Ada\u0000Lovelace' }],
    ['NUL in company', { company: 'Analytical\u0000Engines' }],
    ['NUL in phone', { phone: '+44\u0000123' }],
    ['NUL in notes', { notes: 'first\u0000client' }],
    ['NUL in a custom_fields key', { custom_fields: { 'ref\u0000no': 'A-1' } }],
    ['NUL in a custom_fields value', { custom_fields: { ref: 'A\u00001' } }],
    ['a lone surrogate in a custom_fields value', { custom_fields: { ref: 'a\udc00b' } }],
    ['a lone high surrogate deep in custom_fields', { custom_fields: { a: [{ b: 'x\ud800' }] } }],
  ];

  it.each(poisons)('%s: 400 with a text error, nothing appended', async (_name, poison) => {
    const answer = await refusedWithoutAppend(() =>
      apiRequest(service, tenant.apiKey, 'POST', '/clients', { body: { ...valid(), ...poison } }),
    );
    expect(answer.body).toEqual({ error: expect.stringMatching(/NUL character or an unpaired surrogate/) });
  });

  it('names the field in the text', async () => {
    const answer = await refusedWithoutAppend(() =>
      apiRequest(service, tenant.apiKey, 'POST', '/clients', {
        body: { ...valid(), custom_fields: { ref: 'A\u00001' } },
      }),
    );
    expect(answer.body).toEqual({
      error: 'custom_fields.ref contains a NUL character or an unpaired surrogate',
    });
  });

  it('still creates a client with ordinary Unicode (a surrogate pair, accents)', async () => {
    const answer = await apiRequest(service, tenant.apiKey, 'POST', '/clients', {
      body: { ...valid(), name: 'Zoë 😀', custom_fields: { note: 'naïve 𝄞' } },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.client.name).toBe('Zoë 😀');
  });
});

describe('portal', () => {
  it.each([
    ['x\u0000y', 'NUL'],
    ['a\udc00b', 'a lone low surrogate'],
  ])('PUT answers/:field with %j (%s): 400 invalid_body, nothing appended', async (value) => {
    const answer = await refusedWithoutAppend(() =>
      portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, { body: { value } }),
    );
    expect(answer.body).toEqual(invalidBody);
  });

  it('PUT answers/:field with NUL nested in an object value: 400 invalid_body', async () => {
    const answer = await refusedWithoutAppend(() =>
      portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
        body: { value: { parts: ['ok', 'bad\u0000'] } },
      }),
    );
    expect(answer.body).toEqual(invalidBody);
  });

  it('POST fields/:field/signature with NUL in the signer name: 400 invalid_body, nothing appended', async () => {
    const answer = await refusedWithoutAppend(() =>
      portal(service, token, 'POST', `/fields/${tenant.ids.fields.agreement}/signature`, {
        body: { signer_name: 'Ada\u0000', signer_email: 'ada@example.com' },
      }),
    );
    expect(answer.body).toEqual(invalidBody);
  });

  it('a NUL in a path parameter: 400 invalid_body', async () => {
    const answer = await refusedWithoutAppend(() =>
      portal(service, token, 'PUT', `/answers/a%00b`, { body: { value: 'fine' } }),
    );
    expect(answer.body).toEqual(invalidBody);
  });
});

describe('POST /api/v1/onboardings', () => {
  it.each(['0000-01-01', '0000-06-30T12:00:00Z', '0001-01-01T00:00:00+01:00'])(
    'due_date %s: 400 invalid_deadline, nothing appended',
    async (dueDate) => {
      const answer = await refusedWithoutAppend(() =>
        apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
          body: { template_id: tenant.template.id, client_id: clientId, due_date: dueDate },
        }),
      );
      expect(answer.body).toMatchObject({ code: 'invalid_deadline', retryable: false });
    },
  );

  it('expires_at 0000-01-01: 400 invalid_deadline', async () => {
    const answer = await refusedWithoutAppend(() =>
      apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
        body: { template_id: tenant.template.id, client_id: clientId, expires_at: '0000-01-01' },
      }),
    );
    expect(answer.body).toMatchObject({ code: 'invalid_deadline' });
  });

  it('a read with NUL in its path id answers not found, like any unknown id', async () => {
    const answer = await apiRequest(service, tenant.apiKey, 'GET', `/clients/${clientId}%00`);
    expect(answer).toMatchObject({ status: 404, body: { error: 'Client not found' } });
  });

  it('a NUL in a query value: 400 in the route form', async () => {
    const clients = await refusedWithoutAppend(() =>
      apiRequest(service, tenant.apiKey, 'GET', '/clients?email=a%00b'),
    );
    expect(clients.body).toEqual({ error: 'email contains a NUL character or an unpaired surrogate' });
  });
});

describe('operator API', () => {
  it('PATCH teams/:id monthly_onboarding_limit 2147483648: 400 invalid_body, nothing appended', async () => {
    const answer = await refusedWithoutAppend(() =>
      adminRequest(service, 'PATCH', `/teams/${tenant.teamId}`, { monthly_onboarding_limit: 2147483648 }),
    );
    expect(answer.body).toMatchObject({ code: 'invalid_body', details: { issues: expect.any(Array) } });
  });

  it('PATCH teams/:id new_recipient_cap 1e12: 400 invalid_body', async () => {
    await refusedWithoutAppend(() =>
      adminRequest(service, 'PATCH', `/teams/${tenant.teamId}`, { new_recipient_cap: 1e12 }),
    );
  });

  it('PATCH teams/:id with NUL in the name: 400 invalid_body', async () => {
    const answer = await refusedWithoutAppend(() =>
      adminRequest(service, 'PATCH', `/teams/${tenant.teamId}`, { name: 'Team\u0000' }),
    );
    expect(answer.body).toMatchObject({
      code: 'invalid_body',
      details: { issues: [{ path: 'body/name', message: expect.stringMatching(/NUL/) }] },
    });
  });

  it.each([1e20, -1e20, 2147483648])(
    'POST templates with a step sort_order %s: 400 invalid_body',
    async (n) => {
      const answer = await refusedWithoutAppend(() =>
        adminRequest(service, 'POST', `/teams/${tenant.teamId}/templates`, {
          name: 'Overflow',
          steps: [{ title: 'One', sort_order: n, fields: [] }],
        }),
      );
      expect(answer.body).toMatchObject({ code: 'invalid_body' });
    },
  );

  it('POST templates with a field sort_order 1e20: 400 invalid_body', async () => {
    await refusedWithoutAppend(() =>
      adminRequest(service, 'POST', `/teams/${tenant.teamId}/templates`, {
        name: 'Overflow',
        steps: [
          { title: 'One', sort_order: 1, fields: [{ type: 'short_text', label: 'A', sort_order: 1e20 }] },
        ],
      }),
    );
  });

  it('POST templates with a config nested deeper than 32 levels: 400 invalid_body', async () => {
    let config: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 40; level++) config = { next: config };
    await refusedWithoutAppend(() =>
      adminRequest(service, 'POST', `/teams/${tenant.teamId}/templates`, {
        name: 'Deep',
        steps: [
          {
            title: 'One',
            sort_order: 1,
            fields: [{ type: 'short_text', label: 'A', sort_order: 1, config }],
          },
        ],
      }),
    );
  });
});
