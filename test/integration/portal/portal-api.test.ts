import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest } from '../../helpers/tenant.ts';
import {
  advanceClock,
  createClient,
  createOnboarding,
  createTenant,
  formTemplate,
  operatorLink,
  portal,
  send,
  sentOnboarding,
  uploadFile,
  type Tenant,
} from '../portal-fixtures.ts';

/**
 * The client portal (operator-and-portal-api.md, Client portal API) over real HTTP and
 * PostgreSQL: every route, every error code, and what each records.
 */

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service);
});

afterAll(async () => {
  await service?.stop();
});

const getOnboarding = async (id: string) =>
  (await apiRequest(service, tenant.apiKey, 'GET', `/onboardings/${id}`)).body.onboarding;

async function streamTypes(onboardingId: string) {
  const events = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
  return events.map((event) => event.type);
}

const linkInactive = {
  error: 'This link is no longer active',
  code: 'link_inactive',
  message: 'This link is no longer active',
  retryable: false,
  request_id: expect.any(String),
};

describe('GET /portal/v1/onboardings/:token', () => {
  it('lists a payment field as paid once the team records its payment (the page shows Payment received)', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    expect((await portal(service, token, 'GET')).body.onboarding.paid_field_ids).toEqual([]);
    const body = {
      field_id: tenant.ids.fields.deposit,
      amount_cents: 5000,
      payment_intent_id: 'pi_paid_field',
    };
    expect((await adminRequest(service, 'POST', `/onboardings/${onboardingId}/payments`, body)).status).toBe(
      201,
    );
    expect((await portal(service, token, 'GET')).body.onboarding.paid_field_ids).toEqual([
      tenant.ids.fields.deposit,
    ]);
  });

  it('answers the onboarding; the first open after a send records onboarding.started (sent -> in_progress)', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    expect((await getOnboarding(onboardingId)).status).toBe('sent');

    const first = await portal(service, token, 'GET');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBeTruthy();
    expect(first.body).toEqual({
      team: { display_name: expect.any(String), logo_url: null, accent_color: null },
      client: {
        locale: expect.any(String),
        date_format: expect.any(String),
        timezone: expect.any(String),
        locale_chosen: expect.any(Boolean),
        date_format_chosen: expect.any(Boolean),
      },
      onboarding: {
        id: onboardingId,
        status: 'in_progress',
        progress_pct: 0,
        due_date: null,
        template_snapshot: expect.objectContaining({
          name: 'Client onboarding pack',
          steps: expect.any(Array),
        }),
        responses: [],
        files: [],
        signatures: [],
        document_ready: false,
        submitted_step_ids: [],
        paid_field_ids: [],
        failed_payment_field_ids: [],
        reviews: [],
        signer_email: expect.stringContaining('@example.com'),
        prefill: {},
      },
    });
    expect(first.body.onboarding.template_snapshot.steps[0].fields[0].id).toBe(tenant.ids.fields.fullName);
    expect((await getOnboarding(onboardingId)).status).toBe('in_progress');

    // Opening again records nothing more; a resend makes the next open a first one again.
    expect((await portal(service, token, 'GET')).status).toBe(200);
    expect((await streamTypes(onboardingId)).filter((type) => type === 'onboarding.started')).toHaveLength(1);
    await send(service, tenant, onboardingId);
    const { body: link } = await operatorLink(service, onboardingId);
    expect(link.token).not.toBe(token);
    expect((await portal(service, link.token!, 'GET')).body.onboarding.status).toBe('in_progress');
    expect((await streamTypes(onboardingId)).filter((type) => type === 'onboarding.started')).toHaveLength(2);
  });

  it('shows due_date as given', async () => {
    const { token } = await sentOnboarding(service, tenant, {
      create: { due_date: '2031-05-04T17:00:00+02:00' },
    });
    expect((await portal(service, token, 'GET')).body.onboarding.due_date).toBe(
      '2031-05-04T17:00:00.000+02:00',
    );
  });

  it('prefills the fields that start from the client record until they have an answer', async () => {
    const template = formTemplate();
    template.steps![0]!.fields = [
      {
        type: 'short_text',
        label: 'Full name',
        sort_order: 1,
        is_required: true,
        config: { prefill: 'client_name' },
      },
      {
        type: 'email',
        label: 'Email',
        sort_order: 2,
        is_required: true,
        config: { prefill: 'client_email' },
      },
      { type: 'short_text', label: 'Nickname', sort_order: 3, is_required: false },
    ];
    const prefilled = await createTenant(service, { template });
    const [fullName, email] = prefilled.template.template_steps
      .find((step) => step.title === 'About you')!
      .template_fields.map((field) => field.id);
    const { client, token } = await sentOnboarding(service, prefilled, {
      client: { name: 'Zoë O’Brien', email: `zoe-${randomBytes(4).toString('hex')}@example.com` },
    });
    const opened = await portal(service, token, 'GET');
    expect(opened.body.onboarding.prefill).toEqual({ [fullName!]: 'Zoë O’Brien', [email!]: client.email });
    expect(opened.body.onboarding.responses).toEqual([]);

    // An answer of the client's own is never filled over.
    await portal(service, token, 'PUT', `/answers/${fullName}`, { body: { value: 'Zoë Byrne' } });
    expect((await portal(service, token, 'GET')).body.onboarding.prefill).toEqual({ [email!]: client.email });
  });

  it('a draft opens with its creation token and records nothing', async () => {
    const client = await createClient(service, tenant);
    const draft = await createOnboarding(service, tenant, client.id);
    const answer = await portal(service, draft.token, 'GET');
    expect(answer.status).toBe(200);
    expect(answer.body.onboarding.status).toBe('draft');
    expect(await streamTypes(draft.id)).toEqual(['onboarding_created']);
    // Answering a draft is not allowed.
    const put = await portal(service, draft.token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
      body: { value: 'x' },
    });
    expect(put.status).toBe(409);
    expect(put.body.code).toBe('invalid_state');
  });
});

describe('inactive links: 404 link_inactive, nothing changes', () => {
  it('unknown or malformed token', async () => {
    for (const token of [randomBytes(32).toString('hex'), 'not-a-token', 'a'.repeat(63)]) {
      const answer = await portal(service, token, 'GET');
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(linkInactive);
      expect((await portal(service, token, 'PUT', '/answers/x', { body: { value: 1 } })).body.code).toBe(
        'link_inactive',
      );
    }
  });

  it('a token deactivated by a resend', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await send(service, tenant, onboardingId);
    const before = await streamTypes(onboardingId);
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['PUT', `/answers/${tenant.ids.fields.fullName}`, { value: 'Late' }],
      ['POST', `/steps/${tenant.ids.steps.about}/submit`, undefined],
      [
        'POST',
        `/fields/${tenant.ids.fields.agreement}/signature`,
        { signer_name: 'A', signer_email: 'a@example.com' },
      ],
    ] as const) {
      const answer = await portal(service, token, method, path, { body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toEqual(linkInactive);
    }
    const upload = await uploadFile(service, token, tenant.ids.fields.idDocument, {
      name: 'a.pdf',
      content: 'x',
    });
    expect(upload.status).toBe(404);
    expect(upload.body.code).toBe('link_inactive');
    expect(await streamTypes(onboardingId)).toEqual(before);
  });

  it('a cancelled onboarding', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const cancel = await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${onboardingId}`, {
      body: { status: 'cancelled' },
    });
    expect(cancel.status).toBe(200);
    expect((await portal(service, token, 'GET')).body).toEqual(linkInactive);
  });

  it('an archived onboarding', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    expect((await adminRequest(service, 'POST', `/onboardings/${onboardingId}/archive`)).status).toBe(200);
    expect((await portal(service, token, 'GET')).body).toEqual(linkInactive);
  });

  it('expires_at passed by the service clock (before any timer ran)', async () => {
    const expiresAt = new Date(service.clock.now().getTime() + 3600_000).toISOString();
    const { onboardingId, token } = await sentOnboarding(service, tenant, {
      create: { expires_at: expiresAt },
    });
    expect((await portal(service, token, 'GET')).status).toBe(200);
    const before = await streamTypes(onboardingId);
    await advanceClock(service, 3600);
    expect((await portal(service, token, 'GET')).body).toEqual(linkInactive);
    const put = await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
      body: { value: 'Too late' },
    });
    expect(put.status).toBe(404);
    expect(put.body.code).toBe('link_inactive');
    expect(await streamTypes(onboardingId)).toEqual(before);
  });
});

describe('PIN links', () => {
  it('need X-Onboarding-Pin: missing or wrong 401 pin_required; the PIN carries over to a resend', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant, { send: { pin: '246810' } });
    const missing = await portal(service, token, 'GET');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      error: 'This form needs its PIN: send it in the X-Onboarding-Pin header',
      code: 'pin_required',
      message: 'This form needs its PIN: send it in the X-Onboarding-Pin header',
      retryable: false,
      request_id: expect.any(String),
    });
    const wrong = await portal(service, token, 'GET', '', { pin: '111111' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('pin_required');
    expect((await portal(service, token, 'GET', '', { pin: 'abc' })).body.code).toBe('pin_required');
    const put = await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
      body: { value: 'x' },
    });
    expect(put.status).toBe(401);
    // Nothing recorded by the refused requests.
    expect(await streamTypes(onboardingId)).toEqual(['onboarding_created', 'onboarding.sent']);

    const right = await portal(service, token, 'GET', '', { pin: '246810' });
    expect(right.status).toBe(200);
    expect((await operatorLink(service, onboardingId)).body.pin_required).toBe(true);

    await send(service, tenant, onboardingId, {}); // no pin: the previous link's PIN carries over
    const next = (await operatorLink(service, onboardingId)).body.token!;
    expect((await portal(service, next, 'GET')).status).toBe(401);
    expect((await portal(service, next, 'GET', '', { pin: '246810' })).status).toBe(200);
  });

  it('an inactive PIN link answers link_inactive, not pin_required', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant, { send: { pin: '135790' } });
    await send(service, tenant, onboardingId);
    expect((await portal(service, token, 'GET')).body.code).toBe('link_inactive');
  });
});

describe('PUT /portal/v1/onboardings/:token/answers/:field_id', () => {
  it('autosaves a draft response; a later save of the field replaces its value', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const first = await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
      body: { value: 'Grace Hopper' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      response: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        field_id: tenant.ids.fields.fullName,
        value: 'Grace Hopper',
        status: 'draft',
        rejection_reason: null,
        created_at: service.clock.now().toISOString(),
      },
    });
    // The first request of the client opened the link.
    expect((await getOnboarding(onboardingId)).status).toBe('in_progress');

    const second = await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
      body: { value: 'Grace Brewster Hopper' },
    });
    expect(second.body.response.id).toBe(first.body.response.id);
    expect(second.body.response.value).toEqual('Grace Brewster Hopper');

    const nickname = await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.nickname}`, {
      body: { value: null },
    });
    expect(nickname.status).toBe(200);
    const view = await portal(service, token, 'GET');
    expect(view.body.onboarding.responses.map((response: { field_id: string }) => response.field_id)).toEqual(
      [tenant.ids.fields.fullName, tenant.ids.fields.nickname],
    );
  });

  it('counts as a saved answer for the active-client check of a resend', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, { body: { value: 'x' } });
    const resend = await apiRequest(service, tenant.apiKey, 'POST', `/onboardings/${onboardingId}/send`, {
      body: {},
    });
    expect(resend.status).toBe(409);
    expect(resend.body.code).toBe('requires_force');
  });

  it('400 invalid_body without a value; 404 field_not_found for a field the form does not have', async () => {
    const { token } = await sentOnboarding(service, tenant);
    for (const body of [{}, { other: 1 }, 'text', undefined]) {
      const answer = await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
    }
    const unknown = await portal(service, token, 'PUT', `/answers/${tenant.ids.steps.about}`, {
      body: { value: 1 },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'field_not_found', error: 'Field not found' });
  });

  it('seals the value in the event: the log holds no plain answer', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
      body: { value: 'Secret Answer 42' },
    });
    const { rows } = await service.database.pool.query(
      `select data::text as data from events where stream_id = $1 and type = 'answer_saved'`,
      [`onboarding-${onboardingId}`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].data).not.toContain('Secret Answer 42');
    expect(JSON.parse(rows[0].data).value).toMatchObject({ pd: 'v1', box: expect.any(String) });
  });
});

describe('POST /portal/v1/onboardings/:token/steps/:step_id/submit', () => {
  it('400 invalid_body naming a required field without an answer; 404 step_not_found', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const missing = await portal(service, token, 'POST', `/steps/${tenant.ids.steps.about}/submit`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'invalid_body',
      error: 'Required field "Full name" has no answer',
      details: { field_id: tenant.ids.fields.fullName, step_id: tenant.ids.steps.about },
    });
    expect(await streamTypes(onboardingId)).not.toContain('response.submitted');
    const unknown = await portal(service, token, 'POST', `/steps/${tenant.ids.fields.fullName}/submit`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'step_not_found', error: 'Step not found' });
  });

  it('submits the step: its answers become submitted, one response.submitted per submission, progress_pct', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, { body: { value: 'Ada' } });
    await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.nickname}`, { body: { value: 'A' } });
    const submitted = await portal(service, token, 'POST', `/steps/${tenant.ids.steps.about}/submit`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body.onboarding).toMatchObject({
      id: onboardingId,
      status: 'in_progress',
      progress_pct: 33,
    });
    expect(
      submitted.body.onboarding.responses.map((response: { status: string }) => response.status),
    ).toEqual(['submitted', 'submitted']);
    // Submitting again is another submission.
    expect((await portal(service, token, 'POST', `/steps/${tenant.ids.steps.about}/submit`)).status).toBe(
      200,
    );
    expect((await streamTypes(onboardingId)).filter((type) => type === 'response.submitted')).toHaveLength(2);
    expect((await getOnboarding(onboardingId)).progress_pct).toBe(33);
  });

  it('completes the onboarding when every required step is in: completed, progress_pct 100, onboarding.completed', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const { fields, steps } = tenant.ids;
    await portal(service, token, 'PUT', `/answers/${fields.fullName}`, { body: { value: 'Ada' } });
    await portal(service, token, 'POST', `/steps/${steps.about}/submit`);
    const early = await portal(service, token, 'POST', `/steps/${steps.documents}/submit`);
    expect(early.status).toBe(400);
    // Every problem of the step is listed; the first one names the refusal.
    expect(early.body.details).toEqual({
      field_id: fields.idDocument,
      step_id: steps.documents,
      problem: { code: 'required' },
      problems: [
        { field_id: fields.idDocument, problem: { code: 'required' } },
        { field_id: fields.agreement, problem: { code: 'required' } },
      ],
    });
    expect(
      (await uploadFile(service, token, fields.idDocument, { name: 'id.pdf', content: 'x' })).status,
    ).toBe(201);
    const unsigned = await portal(service, token, 'POST', `/steps/${steps.documents}/submit`);
    expect(unsigned.body.details).toEqual({
      field_id: fields.agreement,
      step_id: steps.documents,
      problem: { code: 'required' },
      problems: [{ field_id: fields.agreement, problem: { code: 'required' } }],
    });
    await portal(service, token, 'POST', `/fields/${fields.agreement}/signature`, {
      body: { signer_name: 'Ada', signer_email: 'ada@example.com' },
    });
    const done = await portal(service, token, 'POST', `/steps/${steps.documents}/submit`);
    expect(done.status).toBe(200);
    expect(done.body.onboarding).toMatchObject({ status: 'completed', progress_pct: 100 });
    expect(await streamTypes(onboardingId)).toEqual(
      expect.arrayContaining(['response.submitted', 'onboarding.completed']),
    );
    expect(await getOnboarding(onboardingId)).toMatchObject({ status: 'completed', progress_pct: 100 });
    // The form stays readable; it takes no more answers.
    expect((await portal(service, token, 'GET')).body.onboarding.status).toBe('completed');
    const late = await portal(service, token, 'PUT', `/answers/${fields.notes}`, { body: { value: 'x' } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('invalid_state');
  });
});

describe('POST /portal/v1/onboardings/:token/fields/:field_id/files', () => {
  it('201 with the file; file.uploaded; the content is stored; the file name is sealed in the event', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const content = Buffer.from('%PDF-1.7 passport scan');
    const answer = await uploadFile(service, token, tenant.ids.fields.idDocument, {
      name: 'C:\\scans\\Passport of Mary.pdf',
      type: 'application/pdf',
      content,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      file: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        field_id: tenant.ids.fields.idDocument,
        file_name: 'Passport of Mary.pdf',
        content_type: 'application/pdf',
        size_bytes: content.length,
        uploaded_at: service.clock.now().toISOString(),
      },
    });
    const stored = await service.database.pool.query(
      'select content, size_bytes, content_type, client_id, sealed from onboarding_files where id = $1',
      [answer.body.file.id],
    );
    // Sealed at rest with the client's key: the bytes are not there in plain, and open to the upload.
    expect(stored.rows[0].sealed).toBe(true);
    expect(stored.rows[0].content.includes(content)).toBe(false);
    const opened = await service.context.vault.openBytes(stored.rows[0].client_id, stored.rows[0].content);
    expect(opened?.equals(content)).toBe(true);
    const { rows } = await service.database.pool.query(
      `select data::text as data from events where stream_id = $1 and type = 'file.uploaded'`,
      [`onboarding-${onboardingId}`],
    );
    expect(rows[0].data).not.toContain('Passport of Mary');
    const feed = await apiRequest(service, tenant.apiKey, 'GET', '/events?type=file.uploaded');
    expect(
      feed.body.events.some((event: { onboarding_id: string }) => event.onboarding_id === onboardingId),
    ).toBe(true);
    const responses = (await portal(service, token, 'GET')).body.onboarding.responses;
    expect(responses).toEqual([
      expect.objectContaining({
        id: answer.body.file.id,
        value: {
          file_id: answer.body.file.id,
          file_name: 'Passport of Mary.pdf',
          content_type: 'application/pdf',
          size_bytes: content.length,
        },
      }),
    ]);
  });

  it('413 payload_too_large over 10 MiB, and nothing is recorded', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await portal(service, token, 'GET');
    const before = await streamTypes(onboardingId);
    const answer = await uploadFile(service, token, tenant.ids.fields.idDocument, {
      name: 'big.bin',
      content: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    expect(answer.status).toBe(413);
    expect(answer.body.code).toBe('payload_too_large');
    expect(await streamTypes(onboardingId)).toEqual(before);
    // Exactly 10 MiB is accepted.
    const limit = await uploadFile(service, token, tenant.ids.fields.idDocument, {
      name: 'limit.txt',
      content: Buffer.alloc(10 * 1024 * 1024, 'a'),
    });
    expect(limit.status).toBe(201);
  });

  it('400 invalid_body without a multipart file', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const json = await portal(service, token, 'POST', `/fields/${tenant.ids.fields.idDocument}/files`, {
      body: { file: 'x' },
    });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('invalid_body');
    const form = new FormData();
    form.append('note', 'no file here');
    const empty = await fetch(
      `${service.url}/portal/v1/onboardings/${token}/fields/${tenant.ids.fields.idDocument}/files`,
      {
        method: 'POST',
        body: form,
      },
    );
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { code: string }).code).toBe('invalid_body');
  });
});

describe('wrong PINs are limited per link (rate limits on)', () => {
  it('after 10 wrong PINs in a 15-minute window the link answers 429 rate_limited, the right PIN too, until the window ends', async () => {
    const limited = await startTestService();
    try {
      const limitedTenant = await createTenant(limited);
      const { token } = await sentOnboarding(limited, limitedTenant, { send: { pin: '424242' } });
      // Missing PINs are not counted (a first open without one is normal).
      for (let i = 0; i < 12; i++) expect((await portal(limited, token, 'GET')).status).toBe(401);
      for (let i = 0; i < 10; i++)
        expect((await portal(limited, token, 'GET', '', { pin: '000000' })).status).toBe(401);
      const locked = await portal(limited, token, 'GET', '', { pin: '424242' });
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({
        error: 'Too many wrong PINs for this link; try again later',
        code: 'rate_limited',
      });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      await advanceClock(limited, 15 * 60);
      expect((await portal(limited, token, 'GET', '', { pin: '424242' })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});
