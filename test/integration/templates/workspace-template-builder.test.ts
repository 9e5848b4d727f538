import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateProjection } from '../../../projections/templates/projection.ts';
import { auditEventsProjection } from '../../../projections/audit-events/projection.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { templateStreamId } from '../../../services/templates/template-events.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createApiKey, createGalleryTemplate, updateTeam } from '../../helpers/tenant.ts';
import { createClient } from '../portal-fixtures.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';

/*
 * The workspace's template builder over real HTTP and PostgreSQL: every route with the
 * member as actor, refusals across teams, bad definitions that change nothing, two saves
 * racing, onboardings keeping their snapshot, the public API reflecting the builder, and
 * a rebuild of the template read models equal to the live tables.
 */

let service: TestService;
let owner: Browser;
let member: Browser;
let memberId: string;
let teamId: string;
let apiKey: string;
let stranger: Browser;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner, teamId } = await signUp(service, 'builder-owner@example.com', 'a long builder passphrase'));
  const added = await addMember(service, owner, 'builder-member@example.com', 'member');
  member = added.browser;
  memberId = added.memberId;
  await updateTeam(service, teamId, { plan: 'pro' });
  apiKey = (await createApiKey(service, teamId)).apiKey;
  ({ owner: stranger } = await signUp(
    service,
    'builder-stranger@example.com',
    'another long passphrase',
    'Other',
  ));
}, 90_000);

afterAll(async () => {
  await service?.stop();
});

const ids = {
  step1: randomUUID(),
  step2: randomUUID(),
  kind: randomUUID(),
  company: randomUUID(),
  sign: randomUUID(),
};

/** Two steps: a choice, a text field shown when the choice equals "business", a signature. */
function definition(name = 'Client intake') {
  return {
    name,
    description: 'For new clients',
    vertical: 'accounting',
    translations: { 'de-DE': { name: 'Kundenaufnahme' } },
    steps: [
      {
        id: ids.step1,
        title: 'About you',
        sort_order: 0,
        translations: { 'de-DE': { title: 'Über Sie' } },
        fields: [
          {
            id: ids.kind,
            type: 'single_choice',
            label: 'You are',
            sort_order: 0,
            is_required: true,
            config: {
              options: [
                { value: 'person', label: 'A person' },
                { value: 'business', label: 'A business' },
              ],
            },
          },
          {
            id: ids.company,
            type: 'short_text',
            label: 'Company name',
            sort_order: 1,
            is_required: true,
            conditional_rules: { show_when: { field_id: ids.kind, operator: 'equals', value: 'business' } },
          },
        ],
      },
      {
        id: ids.step2,
        title: 'Agreement',
        sort_order: 1,
        fields: [
          {
            id: ids.sign,
            type: 'signature',
            label: 'Sign here',
            sort_order: 0,
            is_required: true,
            config: { agreement_text: 'Sample agreement text', is_sample_text: true },
          },
        ],
      },
    ],
  };
}

describe('workspace template builder', () => {
  let templateId: string;

  it('a member creates a template; the events name the member; the public API lists and gets it', async () => {
    const created = await member.call('POST', '/workspace/v1/templates', definition());
    expect(created.status).toBe(201);
    templateId = created.body.template.id;
    expect(created.body.template).toMatchObject({
      version: 1,
      name: 'Client intake',
      send_blockers: [{ step_id: ids.step2, field_id: ids.sign }],
    });
    expect(created.body.template.steps[0].fields[1].conditional_rules).toEqual({
      show_when: { field_id: ids.kind, operator: 'equals', value: 'business' },
    });
    const events = await service.context.eventStore.readStream(templateStreamId(templateId));
    expect(events.map((e) => [e.type, e.metadata.actor_member_id])).toEqual([['template.created', memberId]]);

    const list = await apiRequest(service, apiKey, 'GET', '/templates');
    expect(list.body.templates.map((t: { id: string }) => t.id)).toContain(templateId);
    const one = await apiRequest(service, apiKey, 'GET', `/templates/${templateId}`);
    expect(one.body.template.template_steps[0].template_fields[1].conditional_rules).toMatchObject({
      show_when: { operator: 'equals' },
    });
    // The rule dialog's list keeps its shape.
    const choices = await member.call('GET', '/workspace/v1/templates');
    expect(choices.body.data).toContainEqual({
      id: templateId,
      name: 'Client intake',
      vertical: 'accounting',
      created_at: expect.any(String),
    });
  });

  it('a save replaces the whole definition; onboardings created before keep their snapshot; the public API shows the save', async () => {
    const client = await createClient(service, { apiKey } as never);
    const onboarding = await apiRequest(service, apiKey, 'POST', '/onboardings', {
      body: { template_id: templateId, client_id: client.id },
    });
    expect(onboarding.status).toBe(201);
    const before = (await apiRequest(service, apiKey, 'GET', `/onboardings/${onboarding.body.onboarding.id}`))
      .body.onboarding.template_snapshot;

    const next = definition('Client intake 2');
    next.steps[1]!.fields[0]!.config = {
      agreement_text: 'Our real engagement letter.',
      is_sample_text: false,
    };
    next.steps.reverse();
    next.steps.forEach((step, index) => (step.sort_order = index));
    const saved = await member.call('PUT', `/workspace/v1/templates/${templateId}`, { ...next, version: 1 });
    expect(saved.status).toBe(200);
    expect(saved.body.template).toMatchObject({ version: 2, name: 'Client intake 2', send_blockers: [] });

    const after = (await apiRequest(service, apiKey, 'GET', `/onboardings/${onboarding.body.onboarding.id}`))
      .body.onboarding.template_snapshot;
    expect(after).toEqual(before);
    expect(after.name).toBe('Client intake');

    const one = await apiRequest(service, apiKey, 'GET', `/templates/${templateId}`);
    expect(one.body.template.name).toBe('Client intake 2');
    expect(one.body.template.template_steps.map((s: { title: string }) => s.title)).toEqual([
      'Agreement',
      'About you',
    ]);
    const list = await apiRequest(service, apiKey, 'GET', '/templates');
    expect(list.body.templates.find((t: { id: string }) => t.id === templateId).name).toBe('Client intake 2');

    const events = await service.context.eventStore.readStream(templateStreamId(templateId));
    expect(events.at(-1)).toMatchObject({
      type: 'template.updated',
      metadata: { actor_member_id: memberId },
    });
  });

  it('bad definitions answer 400 in words and change nothing', async () => {
    const current = (await member.call('GET', `/workspace/v1/templates/${templateId}`)).body.template;
    const noOptions = definition();
    noOptions.steps[0]!.fields[0]!.config = { options: [] } as never;
    const badRule = definition();
    (badRule.steps[0]!.fields[1] as { conditional_rules: unknown }).conditional_rules = {
      show_when: { field_id: randomUUID(), operator: 'equals', value: 'x' },
    };
    const badPayment = definition();
    badPayment.steps[1]!.fields.push({
      id: randomUUID(),
      type: 'payment',
      label: 'Deposit',
      sort_order: 1,
      is_required: true,
      config: { currency: 'dollars' },
    } as never);
    const unknownType = definition();
    unknownType.steps[0]!.fields[0]!.type = 'hologram';
    for (const [body, words] of [
      [noOptions, /steps\[0\]\.fields\[0\]: config\.options needs at least one option/],
      [badRule, /steps\[0\]\.fields\[1\]: conditional_rules names a field this template does not hold/],
      [badPayment, /steps\[1\]\.fields\[1\]: config\.currency must be a three-letter/],
      [unknownType, /"hologram" is not a field type/],
      [{ ...definition(), name: ' ' }, /name/i],
    ] as const) {
      const answer = await member.call('PUT', `/workspace/v1/templates/${templateId}`, {
        ...body,
        version: 2,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
      expect(answer.body.message).toMatch(words);
      const created = await member.call('POST', '/workspace/v1/templates', body);
      expect(created.status).toBe(400);
    }
    expect((await member.call('GET', `/workspace/v1/templates/${templateId}`)).body.template).toEqual(
      current,
    );
    const choices = await member.call('GET', '/workspace/v1/templates');
    expect(choices.body.data).toHaveLength(1);
  });

  it('two saves racing from the same version: one wins, the other gets 409 template_changed', async () => {
    const other = owner;
    const [first, second] = await Promise.all([
      member.call('PUT', `/workspace/v1/templates/${templateId}`, { ...definition('Race A'), version: 2 }),
      other.call('PUT', `/workspace/v1/templates/${templateId}`, { ...definition('Race B'), version: 2 }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const lost = first.status === 409 ? first : second;
    const won = first.status === 200 ? first : second;
    expect(lost.body).toMatchObject({ code: 'template_changed', details: { version: 3 } });
    expect(lost.body.message).toMatch(/Someone else saved this template/);
    const now = (await member.call('GET', `/workspace/v1/templates/${templateId}`)).body.template;
    expect(now).toMatchObject({ version: 3, name: won.body.template.name });
  });

  it('another team, no session and no CSRF token are refused; nothing changes', async () => {
    const unknown = randomUUID();
    for (const [method, path, body] of [
      ['GET', `/workspace/v1/templates/${templateId}`, undefined],
      ['PUT', `/workspace/v1/templates/${templateId}`, { ...definition(), version: 3 }],
      ['POST', `/workspace/v1/templates/${templateId}/duplicate`, undefined],
      ['DELETE', `/workspace/v1/templates/${templateId}`, undefined],
      ['GET', `/workspace/v1/templates/${unknown}`, undefined],
      ['DELETE', `/workspace/v1/templates/${unknown}`, undefined],
    ] as const) {
      const answer = await stranger.call(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe('template_not_found');
    }
    expect((await new Browser(service).call('GET', `/workspace/v1/templates/${templateId}`)).status).toBe(
      401,
    );
    const noCsrf = member.copy();
    noCsrf.csrf = '';
    expect((await noCsrf.call('DELETE', `/workspace/v1/templates/${templateId}`)).status).toBe(403);
    expect((await member.call('GET', `/workspace/v1/templates/${templateId}`)).body.template.version).toBe(3);
  });

  it('duplicate: new ids, rules follow the new field ids, named "Copy of"', async () => {
    const copy = await member.call('POST', `/workspace/v1/templates/${templateId}/duplicate`);
    expect(copy.status).toBe(201);
    const original = (await member.call('GET', `/workspace/v1/templates/${templateId}`)).body.template;
    expect(copy.body.template.name).toBe(`Copy of ${original.name}`);
    const copyStep = copy.body.template.steps[0];
    expect(copyStep.id).not.toBe(original.steps[0].id);
    expect(copyStep.fields[1].conditional_rules.show_when.field_id).toBe(copyStep.fields[0].id);
    const del = await member.call('DELETE', `/workspace/v1/templates/${copy.body.template.id}`);
    expect(del.body).toEqual({ success: true });
    expect((await member.call('GET', `/workspace/v1/templates/${copy.body.template.id}`)).status).toBe(404);
    expect((await apiRequest(service, apiKey, 'GET', `/templates/${copy.body.template.id}`)).status).toBe(
      404,
    );
  });

  it('the gallery: listed with its sample-text mark, copied into the team, never edited in place', async () => {
    const gallery = await createGalleryTemplate(service, {
      name: `Engagement ${randomUUID().slice(0, 6)}`,
      steps: [
        {
          title: 'Sign',
          sort_order: 0,
          fields: [
            {
              type: 'signature',
              label: 'Signature',
              sort_order: 0,
              is_required: true,
              config: { agreement_text: 'Sample text', is_sample_text: true },
            },
          ],
        },
      ],
    });
    const list = await stranger.call('GET', '/workspace/v1/gallery-templates');
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ id: gallery.id, sample_agreement_text: true, step_count: 1, field_count: 1 }),
    );
    expect((await member.call('GET', `/workspace/v1/templates/${gallery.id}`)).status).toBe(404);
    expect(
      (await member.call('PUT', `/workspace/v1/templates/${gallery.id}`, { ...definition(), version: 1 }))
        .status,
    ).toBe(404);
    expect((await member.call('POST', `/workspace/v1/gallery-templates/${templateId}/copy`)).status).toBe(
      404,
    );

    const copy = await member.call('POST', `/workspace/v1/gallery-templates/${gallery.id}/copy`);
    expect(copy.status).toBe(201);
    expect(copy.body.template.name).toBe(gallery.name);
    expect(copy.body.template.send_blockers).toHaveLength(1);
    const signature = copy.body.template.steps[0].fields[0];
    expect(signature.id).not.toBe(gallery.template_steps[0]!.template_fields[0]!.id);
    const fixed = {
      ...copy.body.template,
      steps: [
        {
          ...copy.body.template.steps[0],
          fields: [{ ...signature, config: { agreement_text: 'Our letter', is_sample_text: false } }],
        },
      ],
    };
    delete fixed.id;
    delete fixed.created_at;
    delete fixed.updated_at;
    delete fixed.send_blockers;
    const saved = await member.call('PUT', `/workspace/v1/templates/${copy.body.template.id}`, fixed);
    expect(saved.status).toBe(200);
    expect(saved.body.template.send_blockers).toEqual([]);
  });

  it('a rebuild of the template read models after the builder changes equals the live tables', async () => {
    const tables = ['templates', 'template_steps', 'template_fields', 'audit_events'];
    const dump = async (table: string) =>
      (await service.database.pool.query(`select * from ${table} order by id`)).rows;
    const before = await Promise.all(tables.map(dump));
    expect(before[0]!.some((row) => row.version === 3)).toBe(true);
    await rebuildProjections(service.database.pool, service.context.eventStore, [
      templateProjection,
      auditEventsProjection,
    ]);
    expect(await Promise.all(tables.map(dump))).toEqual(before);
  });
});
