/**
 * operator-and-portal-api.md, Operator API: teams, members, API keys, templates and
 * gallery templates over real HTTP, with their read models.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  addMember,
  adminRequest,
  apiRequest,
  createApiKey,
  createGalleryTemplate,
  createTeam,
  createTemplate,
  revokeApiKey,
} from '../../helpers/tenant.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
});
afterAll(async () => {
  await service?.stop();
});

const uuid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const unknownId = '0b9f2a52-6c2e-4d8a-9a59-4d3c2b1a0f9e';

function expectCoded(answer: { status: number; body: any }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.body).toMatchObject({ code, error: expect.any(String), request_id: expect.any(String) });
}

async function row(sql: string, params: unknown[]) {
  return (await service.context.pool.query(sql, params)).rows[0];
}

describe('teams', () => {
  it('creates a team with the documented defaults', async () => {
    const answer = await adminRequest(service, 'POST', '/teams', { name: 'Acme', plan: 'pro' });
    expect(answer.status).toBe(201);
    expect(answer.body.team).toEqual({
      id: uuid,
      name: 'Acme',
      plan: 'pro',
      timezone: 'UTC',
      locale: 'en-US',
      date_format: 'MM/DD/YYYY',
      email_sender_name: null,
      sending_paused: false,
      payments_connected: false,
      stripe_account_id: null,
      monthly_onboarding_limit: null,
      unpaid: false,
      new_recipient_cap: null,
      accent_color: null,
      has_logo: false,
      created_at: service.clock.now().toISOString(),
      updated_at: service.clock.now().toISOString(),
    });
    expect(await row('select name, plan, timezone from teams where id = $1', [answer.body.team.id])).toEqual({
      name: 'Acme',
      plan: 'pro',
      timezone: 'UTC',
    });
  });

  it('creates a team with every optional setting', async () => {
    const team = await createTeam(service, {
      name: 'Bureau',
      plan: 'firm',
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
      date_format: 'DD.MM.YYYY',
      email_sender_name: 'Bureau Team',
    });
    expect(team).toMatchObject({
      plan: 'firm',
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
      date_format: 'DD.MM.YYYY',
      email_sender_name: 'Bureau Team',
    });
  });

  it.each([
    [{ plan: 'pro' }],
    [{ name: 'A', plan: 'enterprise' }],
    [{ name: '', plan: 'pro' }],
    [{ name: 'A', plan: 'pro', timezone: 'Mars/Olympus' }],
    [{ name: 'A', plan: 'pro', date_format: 'YYYY/MM/DD' }],
  ])('refuses %j with 400 invalid_body naming the field', async (body) => {
    const answer = await adminRequest(service, 'POST', '/teams', body);
    expectCoded(answer, 400, 'invalid_body');
    expect(answer.body.details.issues.length).toBeGreaterThan(0);
  });

  it('changes every setting with PATCH, and the read model follows', async () => {
    const team = await createTeam(service, { plan: 'pro' });
    service.clock.advance(60);
    const changes = {
      name: 'Renamed',
      plan: 'business',
      timezone: 'America/New_York',
      locale: 'fr-FR',
      date_format: 'YYYY-MM-DD',
      email_sender_name: 'Sender',
      sending_paused: true,
      payments_connected: true,
      monthly_onboarding_limit: 12,
      unpaid: true,
      new_recipient_cap: 3,
    };
    const answer = await adminRequest(service, 'PATCH', `/teams/${team.id}`, changes);
    expect(answer.status).toBe(200);
    expect(answer.body.team).toEqual({
      ...team,
      ...changes,
      updated_at: service.clock.now().toISOString(),
    });
    expect(
      await row(
        `select name, plan, timezone, locale, date_format, email_sender_name, sending_paused, payments_connected,
                monthly_onboarding_limit, monthly_onboarding_unlimited, unpaid, new_recipient_cap
         from teams where id = $1`,
        [team.id],
      ),
    ).toEqual({ ...changes, monthly_onboarding_unlimited: false });

    const unlimited = await adminRequest(service, 'PATCH', `/teams/${team.id}`, {
      monthly_onboarding_limit: 'unlimited',
      new_recipient_cap: null,
      email_sender_name: null,
    });
    expect(unlimited.body.team).toMatchObject({
      monthly_onboarding_limit: 'unlimited',
      new_recipient_cap: null,
      email_sender_name: null,
      name: 'Renamed',
    });
    expect(
      await row('select monthly_onboarding_limit, monthly_onboarding_unlimited from teams where id = $1', [
        team.id,
      ]),
    ).toEqual({ monthly_onboarding_limit: null, monthly_onboarding_unlimited: true });
    const planDefault = await adminRequest(service, 'PATCH', `/teams/${team.id}`, {
      monthly_onboarding_limit: null,
    });
    expect(planDefault.body.team.monthly_onboarding_limit).toBeNull();
  });

  it('refuses an empty or malformed PATCH, and answers 404 for an unknown team', async () => {
    const team = await createTeam(service);
    expectCoded(await adminRequest(service, 'PATCH', `/teams/${team.id}`, {}), 400, 'invalid_body');
    expectCoded(
      await adminRequest(service, 'PATCH', `/teams/${team.id}`, { monthly_onboarding_limit: -1 }),
      400,
      'invalid_body',
    );
    expectCoded(
      await adminRequest(service, 'PATCH', `/teams/${team.id}`, { sending_paused: 'yes' }),
      400,
      'invalid_body',
    );
    expectCoded(
      await adminRequest(service, 'PATCH', `/teams/${unknownId}`, { name: 'x' }),
      404,
      'team_not_found',
    );
    expectCoded(
      await adminRequest(service, 'PATCH', '/teams/not-a-uuid', { name: 'x' }),
      400,
      'invalid_body',
    );
  });
});

describe('members', () => {
  it('adds a member (email trimmed and lowercased) and removes it', async () => {
    const team = await createTeam(service);
    const answer = await adminRequest(service, 'POST', `/teams/${team.id}/members`, {
      name: 'Ann Owner',
      email: '  Ann@Example.COM ',
      role: 'owner',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.member).toEqual({
      id: uuid,
      team_id: team.id,
      name: 'Ann Owner',
      email: 'ann@example.com',
      role: 'owner',
      created_at: expect.any(String),
    });
    const memberId = answer.body.member.id;
    expect(await row('select email, role, removed_at from team_members where id = $1', [memberId])).toEqual({
      email: 'ann@example.com',
      role: 'owner',
      removed_at: null,
    });

    const removed = await adminRequest(service, 'DELETE', `/teams/${team.id}/members/${memberId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expect(
      (await row('select removed_at from team_members where id = $1', [memberId])).removed_at,
    ).toBeInstanceOf(Date);
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${team.id}/members/${memberId}`),
      404,
      'member_not_found',
    );
  });

  it('refuses a second current member with the same email, a bad role, and unknown teams or members', async () => {
    const team = await createTeam(service);
    await addMember(service, team.id, { email: 'bo@example.com' });
    expectCoded(
      await adminRequest(service, 'POST', `/teams/${team.id}/members`, {
        name: 'Bo',
        email: 'BO@example.com',
        role: 'admin',
      }),
      409,
      'member_exists',
    );
    expectCoded(
      await adminRequest(service, 'POST', `/teams/${team.id}/members`, {
        name: 'C',
        email: 'c@example.com',
        role: 'boss',
      }),
      400,
      'invalid_body',
    );
    expectCoded(
      await adminRequest(service, 'POST', `/teams/${team.id}/members`, {
        name: 'C',
        email: 'nope',
        role: 'admin',
      }),
      400,
      'invalid_body',
    );
    expectCoded(
      await adminRequest(service, 'POST', `/teams/${unknownId}/members`, {
        name: 'C',
        email: 'c@example.com',
        role: 'admin',
      }),
      404,
      'team_not_found',
    );
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${team.id}/members/${unknownId}`),
      404,
      'member_not_found',
    );
  });

  it("does not remove another team's member", async () => {
    const a = await createTeam(service);
    const b = await createTeam(service);
    const member = await addMember(service, a.id);
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${b.id}/members/${member.id}`),
      404,
      'member_not_found',
    );
  });
});

describe('API keys', () => {
  it('answers the secret once and stores only its SHA-256', async () => {
    const team = await createTeam(service);
    const answer = await adminRequest(service, 'POST', `/teams/${team.id}/api-keys`, {
      name: 'Zapier',
      scopes: ['clients:read', 'onboardings:write'],
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      api_key: {
        id: uuid,
        name: 'Zapier',
        scopes: ['clients:read', 'onboardings:write'],
        expires_at: null,
        created_at: service.clock.now().toISOString(),
      },
      secret: expect.stringMatching(/^cos_/),
    });
    const { secret } = answer.body;
    const stored = await row('select * from api_keys where id = $1', [answer.body.api_key.id]);
    expect(stored.key_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(secret);
    const events = await service.context.pool.query('select data::text as data from events');
    for (const event of events.rows) expect(event.data).not.toContain(secret);
  });

  it('saves a missing or empty name as Default', async () => {
    const team = await createTeam(service);
    expect((await createApiKey(service, team.id, ['clients:read'])).api_key.name).toBe('Default');
    expect((await createApiKey(service, team.id, ['clients:read'], { name: '' })).api_key.name).toBe(
      'Default',
    );
  });

  it('accepts templates:write and refuses unknown scopes, no scopes, and bad or past expiry dates', async () => {
    service.clock.set(new Date('2031-06-15T12:00:00.000Z'));
    const team = await createTeam(service);
    expect((await createApiKey(service, team.id, ['templates:write'])).api_key.scopes).toEqual([
      'templates:write',
    ]);
    const post = (body: unknown) => adminRequest(service, 'POST', `/teams/${team.id}/api-keys`, body);
    expectCoded(await post({ scopes: [] }), 400, 'invalid_body');
    expectCoded(await post({}), 400, 'invalid_body');
    expectCoded(await post({ scopes: ['admin:all'] }), 400, 'invalid_body');
    expectCoded(await post({ scopes: ['clients:read'], expires_on: '2031-02-30' }), 400, 'invalid_body');
    expectCoded(await post({ scopes: ['clients:read'], expires_on: '15/06/2031' }), 400, 'invalid_body');
    expectCoded(await post({ scopes: ['clients:read'], expires_on: '2031-06-14' }), 400, 'invalid_body');
    const today = await post({ scopes: ['clients:read'], expires_on: '2031-06-15' });
    expect(today.body.api_key.expires_at).toBe('2031-06-15T23:59:59.999Z');
    expectCoded(
      await adminRequest(service, 'POST', `/teams/${unknownId}/api-keys`, { scopes: ['clients:read'] }),
      404,
      'team_not_found',
    );
  });

  it('refuses a sixth active key with 409 key_limit_reached; a revoked or expired key frees its slot', async () => {
    service.clock.set(new Date('2031-07-01T09:00:00.000Z'));
    const team = await createTeam(service);
    const keys = [];
    for (let i = 0; i < 4; i++) keys.push(await createApiKey(service, team.id, ['clients:read']));
    const expiring = await createApiKey(service, team.id, ['clients:read'], { expires_on: '2031-07-01' });
    const sixth = () =>
      adminRequest(service, 'POST', `/teams/${team.id}/api-keys`, { scopes: ['clients:read'] });
    const refused = await sixth();
    expectCoded(refused, 409, 'key_limit_reached');
    expect(refused.body.retryable).toBe(false);

    await revokeApiKey(service, team.id, keys[0]!.apiKeyId);
    expect((await sixth()).status).toBe(201);
    expectCoded(await sixth(), 409, 'key_limit_reached');

    service.clock.set(new Date('2031-07-02T00:00:00.000Z'));
    expect((await apiRequest(service, expiring.apiKey, 'GET', '/me')).status).toBe(401);
    expect((await sixth()).status).toBe(201);
    expectCoded(await sixth(), 409, 'key_limit_reached');
    const active = await row(
      `select count(*)::int as n from api_keys
       where team_id = $1 and revoked_at is null and (expires_at is null or expires_at >= $2)`,
      [team.id, service.clock.now()],
    );
    expect(active.n).toBe(5);
  });

  it('never makes a sixth active key from concurrent creations', async () => {
    const team = await createTeam(service);
    for (let i = 0; i < 4; i++) await createApiKey(service, team.id, ['clients:read']);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        adminRequest(service, 'POST', `/teams/${team.id}/api-keys`, { scopes: ['clients:read'] }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201))
      expectCoded(answer, 409, 'key_limit_reached');

    const fresh = await createTeam(service);
    const racing = await Promise.all(
      Array.from({ length: 8 }, () =>
        adminRequest(service, 'POST', `/teams/${fresh.id}/api-keys`, { scopes: ['clients:read'] }),
      ),
    );
    const created = racing.filter((answer) => answer.status === 201).length;
    expect(created).toBeLessThanOrEqual(5);
    for (const answer of racing.filter((a) => a.status !== 201)) expect(answer.status).toBe(409);
    const count = await row(
      'select count(*)::int as n from api_keys where team_id = $1 and revoked_at is null',
      [fresh.id],
    );
    expect(count.n).toBe(created);
  });

  it("revokes a key (idempotently) and answers 404 for an unknown key or another team's key", async () => {
    const a = await createTeam(service);
    const b = await createTeam(service);
    const key = await createApiKey(service, a.id, ['clients:read']);
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${b.id}/api-keys/${key.apiKeyId}`),
      404,
      'api_key_not_found',
    );
    expect((await apiRequest(service, key.apiKey, 'GET', '/me')).status).toBe(200);
    const revoked = await adminRequest(service, 'DELETE', `/teams/${a.id}/api-keys/${key.apiKeyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect((await adminRequest(service, 'DELETE', `/teams/${a.id}/api-keys/${key.apiKeyId}`)).body).toEqual({
      success: true,
    });
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${a.id}/api-keys/${unknownId}`),
      404,
      'api_key_not_found',
    );
    expect(
      (await row('select revoked_at from api_keys where id = $1', [key.apiKeyId])).revoked_at,
    ).toBeInstanceOf(Date);
  });
});

describe('templates', () => {
  const body = {
    name: 'Tax intake',
    description: 'Yearly',
    vertical: 'accounting',
    settings: { theme: 'blue' },
    translations: { fr: { name: 'Impôts' } },
    steps: [
      {
        title: 'About you',
        sort_order: 2,
        conditional_rules: { show_if: 'x' },
        translations: { fr: { title: 'Vous' } },
        fields: [
          { type: 'short_text', label: 'Name', sort_order: 1, is_required: true },
          {
            type: 'signature',
            label: 'Sign',
            sort_order: 2,
            config: { agreement_text: 'Terms', is_sample_text: true },
            conditional_rules: [{ when: 'a' }],
            translations: { fr: { label: 'Signer' } },
          },
        ],
      },
      { title: 'Payment', sort_order: 1, is_optional: true, fields: [] },
    ],
  };

  it('creates a team template with ids, answered as GET /api/v1/templates/:id, and its read model', async () => {
    const team = await createTeam(service);
    const answer = await adminRequest(service, 'POST', `/teams/${team.id}/templates`, body);
    expect(answer.status).toBe(201);
    const template = answer.body.template;
    expect(template).toEqual({
      id: uuid,
      name: 'Tax intake',
      description: 'Yearly',
      vertical: 'accounting',
      created_at: service.clock.now().toISOString(),
      template_steps: [
        {
          id: uuid,
          title: 'About you',
          sort_order: 2,
          is_optional: false,
          conditional_rules: { show_if: 'x' },
          template_fields: [
            {
              id: uuid,
              type: 'short_text',
              label: 'Name',
              is_required: true,
              sort_order: 1,
              config: {},
              conditional_rules: null,
            },
            {
              id: uuid,
              type: 'signature',
              label: 'Sign',
              is_required: false,
              sort_order: 2,
              config: { agreement_text: 'Terms', is_sample_text: true },
              conditional_rules: [{ when: 'a' }],
            },
          ],
        },
        {
          id: uuid,
          title: 'Payment',
          sort_order: 1,
          is_optional: true,
          conditional_rules: null,
          template_fields: [],
        },
      ],
    });
    const ids = [
      template.id,
      ...template.template_steps.flatMap((s: any) => [s.id, ...s.template_fields.map((f: any) => f.id)]),
    ];
    expect(new Set(ids).size).toBe(ids.length);

    const stored = await row('select * from templates where id = $1', [template.id]);
    expect(stored).toMatchObject({
      team_id: team.id,
      gallery: false,
      name: 'Tax intake',
      vertical: 'accounting',
      settings: { theme: 'blue' },
      translations: { fr: { name: 'Impôts' } },
      deleted_at: null,
    });
    expect(stored.snapshot).toEqual({
      name: 'Tax intake',
      description: 'Yearly',
      vertical: 'accounting',
      settings: { theme: 'blue' },
      translations: { fr: { name: 'Impôts' } },
      steps: [
        {
          id: template.template_steps[0].id,
          title: 'About you',
          sort_order: 2,
          is_optional: false,
          conditional_rules: { show_if: 'x' },
          translations: { fr: { title: 'Vous' } },
          fields: [
            {
              id: template.template_steps[0].template_fields[0].id,
              type: 'short_text',
              label: 'Name',
              sort_order: 1,
              is_required: true,
              config: {},
              conditional_rules: null,
              translations: null,
            },
            {
              id: template.template_steps[0].template_fields[1].id,
              type: 'signature',
              label: 'Sign',
              sort_order: 2,
              is_required: false,
              config: { agreement_text: 'Terms', is_sample_text: true },
              conditional_rules: [{ when: 'a' }],
              translations: { fr: { label: 'Signer' } },
            },
          ],
        },
        {
          id: template.template_steps[1].id,
          title: 'Payment',
          sort_order: 1,
          is_optional: true,
          conditional_rules: null,
          translations: null,
          fields: [],
        },
      ],
    });
    const steps = await service.context.pool.query(
      'select id, title, position from template_steps where template_id = $1 order by position',
      [template.id],
    );
    expect(steps.rows.map((s) => s.title)).toEqual(['About you', 'Payment']);
    const fields = await service.context.pool.query(
      'select label, step_id, config from template_fields where template_id = $1 order by position',
      [template.id],
    );
    expect(fields.rows).toEqual([
      { label: 'Name', step_id: template.template_steps[0].id, config: {} },
      {
        label: 'Sign',
        step_id: template.template_steps[0].id,
        config: { agreement_text: 'Terms', is_sample_text: true },
      },
    ]);
  });

  it('creates a gallery template without a team', async () => {
    const gallery = await createGalleryTemplate(service, { name: 'Starter kit', vertical: 'legal' });
    expect(gallery).toMatchObject({
      name: 'Starter kit',
      vertical: 'legal',
      template_steps: [expect.any(Object)],
    });
    expect(
      await row('select team_id, gallery, deleted_at from templates where id = $1', [gallery.id]),
    ).toEqual({
      team_id: null,
      gallery: true,
      deleted_at: null,
    });
  });

  it("deletes a team's template once; unknown, another team's and gallery templates are 404", async () => {
    const a = await createTeam(service);
    const b = await createTeam(service);
    const template = await createTemplate(service, a.id);
    const gallery = await createGalleryTemplate(service);
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${b.id}/templates/${template.id}`),
      404,
      'template_not_found',
    );
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${a.id}/templates/${gallery.id}`),
      404,
      'template_not_found',
    );
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${a.id}/templates/${unknownId}`),
      404,
      'template_not_found',
    );
    const deleted = await adminRequest(service, 'DELETE', `/teams/${a.id}/templates/${template.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expect(
      (await row('select deleted_at from templates where id = $1', [template.id])).deleted_at,
    ).toBeInstanceOf(Date);
    expectCoded(
      await adminRequest(service, 'DELETE', `/teams/${a.id}/templates/${template.id}`),
      404,
      'template_not_found',
    );
  });

  it('refuses malformed templates and unknown teams', async () => {
    const team = await createTeam(service);
    const post = (payload: unknown) => adminRequest(service, 'POST', `/teams/${team.id}/templates`, payload);
    expectCoded(await post({ steps: [] }), 400, 'invalid_body');
    expectCoded(await post({ name: 'T', steps: [{ sort_order: 1 }] }), 400, 'invalid_body');
    expectCoded(await post({ name: 'T', steps: [{ title: 'S', sort_order: 1.5 }] }), 400, 'invalid_body');
    expectCoded(
      await post({
        name: 'T',
        steps: [{ title: 'S', sort_order: 1, fields: [{ type: 'short_text', sort_order: 1 }] }],
      }),
      400,
      'invalid_body',
    );
    expectCoded(await post({ name: 'T', settings: 'dark' }), 400, 'invalid_body');
    expectCoded(
      await adminRequest(service, 'POST', `/teams/${unknownId}/templates`, { name: 'T' }),
      404,
      'team_not_found',
    );
    expect((await post({ name: 'Empty' })).body.template).toMatchObject({
      name: 'Empty',
      description: null,
      vertical: null,
      template_steps: [],
    });
  });
});
