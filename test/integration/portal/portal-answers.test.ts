import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createTeamWithKey, createTemplate, type TemplateInput } from '../../helpers/tenant.ts';
import { portal, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/**
 * The field catalogue's answer rules on the portal over real HTTP and PostgreSQL: an
 * autosave (PUT answers/:field_id) is refused only for an answer of the wrong shape; a step
 * submit checks every rule of every field of the step, required included.
 */

let service: TestService;
let tenant: Tenant;
const ids: Record<string, string> = {};
let stepId: string;

const answersTemplate = (): TemplateInput => ({
  name: 'Answers pack',
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      fields: [
        { type: 'heading', label: 'Welcome', sort_order: 1, is_required: false, config: { text: 'Hi' } },
        { type: 'short_text', label: 'Name', sort_order: 2, is_required: true, config: { max_length: 10 } },
        { type: 'email', label: 'Email', sort_order: 3, is_required: true },
        {
          type: 'single_choice',
          label: 'Plan',
          sort_order: 4,
          is_required: false,
          config: { options: ['basic', 'pro'] },
        },
        { type: 'number', label: 'Age', sort_order: 5, is_required: false, config: { min: 18 } },
        { type: 'checkbox', label: 'Terms', sort_order: 6, is_required: true },
        { type: 'file_upload', label: 'Passport', sort_order: 7, is_required: false },
      ],
    },
  ],
});

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await createTeamWithKey(service);
  const template = await createTemplate(service, team.teamId, answersTemplate());
  // The shared form's field ids do not apply to this template.
  tenant = { ...team, template, ids: {} as Tenant['ids'] };
  const step = template.template_steps[0]!;
  stepId = step.id;
  for (const field of step.template_fields) ids[field.label] = field.id;
});

afterAll(async () => {
  await service?.stop();
});

const save = (token: string, label: string, value: unknown) =>
  portal(service, token, 'PUT', `/answers/${ids[label]}`, { body: { value } });

async function streamTypes(onboardingId: string) {
  const events = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
  return events.map((event) => event.type);
}

describe('PUT answers/:field_id checks the answer’s shape', () => {
  it('400 invalid_body with details {field_id, step_id, problem}; nothing is recorded', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await portal(service, token, 'GET');
    const before = await streamTypes(onboardingId);
    const cases: [string, unknown, { code: string; params?: Record<string, unknown> }][] = [
      ['Name', 42, { code: 'wrong_type', params: { expected: 'text' } }],
      ['Name', 'x'.repeat(11), { code: 'too_long', params: { max: 10 } }],
      ['Plan', 'enterprise', { code: 'not_an_option' }],
      ['Age', 'eighteen', { code: 'not_a_number' }],
      ['Terms', 'yes', { code: 'wrong_type', params: { expected: 'yes_no' } }],
      ['Welcome', 'anything', { code: 'not_answerable' }],
      ['Passport', { file: 'x' }, { code: 'not_answerable' }],
    ];
    for (const [label, value, problem] of cases) {
      const answer = await save(token, label, value);
      expect(answer.status, label).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'invalid_body',
        details: { field_id: ids[label], step_id: stepId, problem },
      });
      expect(answer.body.error).toContain(`"${label}"`);
    }
    expect(await streamTypes(onboardingId)).toEqual(before);
  });

  it('a draft of the right shape is saved even when it would not pass the submit yet', async () => {
    const { token } = await sentOnboarding(service, tenant);
    expect((await save(token, 'Email', 'ada@')).status).toBe(200);
    expect((await save(token, 'Age', 12)).status).toBe(200);
    expect((await save(token, 'Name', '')).status).toBe(200);
    expect((await save(token, 'Name', null)).status).toBe(200);
  });
});

describe('POST steps/:step_id/submit checks every rule of the step', () => {
  it('400 naming the first problem, listing them all; 200 once every field passes', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await save(token, 'Email', 'ada@');
    await save(token, 'Age', 12);
    await save(token, 'Terms', false);
    const refused = await portal(service, token, 'POST', `/steps/${stepId}/submit`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'invalid_body',
      error: 'Required field "Name" has no answer',
      details: {
        field_id: ids['Name'],
        step_id: stepId,
        problem: { code: 'required' },
        problems: [
          { field_id: ids['Name'], problem: { code: 'required' } },
          { field_id: ids['Email'], problem: { code: 'invalid_email' } },
          { field_id: ids['Age'], problem: { code: 'too_small', params: { min: 18 } } },
          { field_id: ids['Terms'], problem: { code: 'must_be_checked' } },
        ],
      },
    });
    expect(await streamTypes(onboardingId)).not.toContain('response.submitted');

    await save(token, 'Name', 'Ada');
    const secondTry = await portal(service, token, 'POST', `/steps/${stepId}/submit`);
    expect(secondTry.status).toBe(400);
    expect(secondTry.body.details.field_id).toBe(ids['Email']);
    expect(secondTry.body.error).toBe('Field "Email" needs a valid email address');

    await save(token, 'Email', 'ada@example.com');
    await save(token, 'Age', 30);
    await save(token, 'Terms', true);
    const done = await portal(service, token, 'POST', `/steps/${stepId}/submit`);
    expect(done.status).toBe(200);
    expect(done.body.onboarding.status).toBe('completed');
  });
});
