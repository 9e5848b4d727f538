import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';
import { templateDecider, type TemplateCommand } from './template-decider.ts';
import type { TemplateContent, TemplateEvent } from './template-events.ts';

/** UpdateTemplate, given-when-then: the builder's whole-definition save with its version. */

const templateId = '44444444-4444-4444-8444-444444444444';
const teamId = '11111111-1111-4111-8111-111111111111';
const otherTeam = '22222222-2222-4222-8222-222222222222';
const stepId = '55555555-5555-4555-8555-555555555555';
const [kind, company] = ['66666666-6666-4666-8666-666666666666', '77777777-7777-4777-8777-777777777777'];
const now = new Date('2030-01-10T12:00:00.000Z');

const field = (id: string, overrides: Partial<TemplateContent['steps'][number]['fields'][number]> = {}) => ({
  id,
  type: 'short_text',
  label: 'Kind',
  sort_order: 0,
  is_required: true,
  config: {},
  conditional_rules: null,
  translations: null,
  ...overrides,
});

const content = (fields = [field(kind)]): TemplateContent => ({
  name: 'Intake',
  description: null,
  vertical: null,
  settings: {},
  translations: null,
  steps: [
    {
      id: stepId,
      title: 'About',
      sort_order: 0,
      is_optional: false,
      conditional_rules: null,
      translations: null,
      fields,
    },
  ],
});

const created = (team: string | null = teamId): TemplateEvent => ({
  type: 'template.created',
  data: {
    template_id: templateId,
    team_id: team,
    gallery: team === null,
    ...content(),
    created_at: now.toISOString(),
  },
});

const update = (expected_version: number, next = content(), team = teamId): TemplateCommand => ({
  type: 'UpdateTemplate',
  data: { team_id: team, expected_version, content: next },
  metadata: { now },
});

const given = DeciderSpecification.for(templateDecider);

describe('UpdateTemplate', () => {
  it('records the whole new definition with the next version', () => {
    const next = content([
      field(kind),
      field(company, {
        label: 'Company',
        conditional_rules: { show_when: { field_id: kind, operator: 'equals', value: 'business' } },
      }),
    ]);
    given([created()])
      .when(update(1, next))
      .then([
        {
          type: 'template.updated',
          data: {
            template_id: templateId,
            team_id: teamId,
            version: 2,
            ...next,
            updated_at: now.toISOString(),
          },
        },
      ]);
    const [updated] = given(created()).when(update(1, next)).events();
    expect(
      given(created(), updated!)
        .when(update(2))
        .events()
        .map((e) => (e.data as { version: number }).version),
    ).toEqual([3]);
  });

  it('a save naming an older version is refused: template_changed with the current version', () => {
    const [updated] = given(created()).when(update(1)).events();
    given(created(), updated!).when(update(1)).thenThrows('template_changed', { version: 2 });
  });

  it("another team's, a gallery and a deleted template are not found", () => {
    given([created()])
      .when(update(1, content(), otherTeam))
      .thenThrows('template_not_found');
    given([created(null)])
      .when(update(1))
      .thenThrows('template_not_found');
    const deleted: TemplateEvent = {
      type: 'template.deleted',
      data: { template_id: templateId, team_id: teamId, deleted_at: now.toISOString() },
    };
    given([created(), deleted]).when(update(1)).thenThrows('template_not_found');
    given([]).when(update(1)).thenThrows('template_not_found');
  });

  it('checks every field config and every conditional rule', () => {
    const badConfig = content([field(kind, { type: 'single_choice', config: {} })]);
    expect(given(created()).when(update(1, badConfig)).thenThrows('invalid_body').message).toMatch(
      /steps\[0\]\.fields\[0\]: config\.options/,
    );
    const selfRule = content([
      field(kind, { conditional_rules: { show_when: { field_id: kind, operator: 'is_empty' } } }),
    ]);
    given([created()]).when(update(1, selfRule)).thenThrows('invalid_body');
    const oddRule = content([field(kind, { conditional_rules: { hide: true } })]);
    expect(given(created()).when(update(1, oddRule)).thenThrows('invalid_body').message).toMatch(/show_when/);
    const twice = content([field(kind), field(kind)]);
    given([created()]).when(update(1, twice)).thenThrows('duplicate_id');
  });

  it('CreateTemplate keeps any rule JSON for the operator API, and checks rules for the builder', () => {
    const oddRule = content([field(kind, { conditional_rules: { hide: true } })]);
    const create = (check_rules: boolean): TemplateCommand => ({
      type: 'CreateTemplate',
      data: { template_id: templateId, team_id: teamId, content: oddRule, check_rules },
      metadata: { now },
    });
    given().when(create(false)).thenTypes(['template.created']);
    given([]).when(create(true)).thenThrows('invalid_body');
  });
});
