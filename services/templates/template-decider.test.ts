import { describe, expect, it } from 'vitest';
import { DomainError, fold } from '../../shared/commands/decider.ts';
import { templateDecider, type TemplateCommand } from './template-decider.ts';
import type { TemplateContent, TemplateEvent } from './template-events.ts';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';

const templateId = '44444444-4444-4444-8444-444444444444';
const teamId = '11111111-1111-4111-8111-111111111111';
const otherTeam = '22222222-2222-4222-8222-222222222222';
const now = '2030-01-10T12:00:00.000Z';

const content: TemplateContent = {
  name: 'Tax intake',
  description: null,
  vertical: 'accounting',
  settings: {},
  translations: null,
  steps: [
    {
      id: '55555555-5555-4555-8555-555555555555',
      title: 'About you',
      sort_order: 1,
      is_optional: false,
      conditional_rules: null,
      translations: null,
      fields: [
        {
          id: '66666666-6666-4666-8666-666666666666',
          type: 'short_text',
          label: 'Name',
          sort_order: 1,
          is_required: true,
          config: {},
          conditional_rules: null,
          translations: null,
        },
      ],
    },
  ],
};

const createdFor = (team: string | null): TemplateEvent => ({
  type: 'template.created',
  data: { template_id: templateId, team_id: team, gallery: team === null, ...content, created_at: now },
});

const given = DeciderSpecification.for(templateDecider);

const createCommand = (team: string | null, body = content): TemplateCommand => ({
  type: 'CreateTemplate',
  data: { template_id: templateId, team_id: team, content: body },
  metadata: { now: new Date(now) },
});
const deleteCommand = (team: string): TemplateCommand => ({
  type: 'DeleteTemplate',
  data: { team_id: team },
  metadata: { now: new Date(now) },
});

describe('template decider', () => {
  it("creates a team's template with its steps and fields", () => {
    given([])
      .when(createCommand(teamId))
      .then([createdFor(teamId)]);
  });

  it('creates a gallery template without a team', () => {
    given([])
      .when(createCommand(null))
      .then([createdFor(null)]);
  });

  it('refuses to create it twice, or with repeated ids', () => {
    given([createdFor(teamId)])
      .when(createCommand(teamId))
      .thenThrows('template_exists');
    const step = content.steps[0]!;
    const repeated = { ...content, steps: [step, { ...step, fields: [] }] };
    given([]).when(createCommand(teamId, repeated)).thenThrows('duplicate_id');
  });

  it("deletes a team's own template once", () => {
    const deleted: TemplateEvent = {
      type: 'template.deleted',
      data: { template_id: templateId, team_id: teamId, deleted_at: now },
    };
    given([createdFor(teamId)])
      .when(deleteCommand(teamId))
      .then([deleted]);
    given([createdFor(teamId), deleted])
      .when(deleteCommand(teamId))
      .thenThrows('template_not_found');
  });

  it("treats unknown, another team's and gallery templates as not found", () => {
    given([]).when(deleteCommand(teamId)).thenThrows('template_not_found');
    given([createdFor(teamId)])
      .when(deleteCommand(otherTeam))
      .thenThrows('template_not_found');
    given([createdFor(null)])
      .when(deleteCommand(teamId))
      .thenThrows('template_not_found');
  });

  it('refuses a field outside the catalogue or with a config its type does not take, naming its position', () => {
    const step = content.steps[0]!;
    const name = step.fields[0]!;
    const withFields = (fields: (typeof step.fields)[number][]): TemplateContent => ({
      ...content,
      steps: [step, { ...step, id: '77777777-7777-4777-8777-777777777777', fields }],
    });
    const field = (
      id: string,
      type: string,
      config: Record<string, never> | Record<string, unknown> = {},
    ) => ({
      ...name,
      id,
      type,
      config: config as (typeof name)['config'],
    });
    const refuse = (body: TemplateContent) => {
      try {
        templateDecider.decide(createCommand(teamId, body), fold(templateDecider, []));
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        return error as DomainError;
      }
      throw new Error('created');
    };

    const unknownType = refuse(withFields([field('a1', 'short_text'), field('a2', 'text')]));
    expect(unknownType.code).toBe('invalid_body');
    expect(unknownType.message).toMatch(/^steps\[1\]\.fields\[1\]: type "text" is not a field type/);

    const noOptions = refuse(
      withFields([
        field('b1', 'short_text'),
        field('b2', 'email'),
        field('b3', 'single_choice', { options: [] }),
      ]),
    );
    expect(noOptions.message).toBe('steps[1].fields[2]: config.options needs at least one option');

    const several = refuse(
      withFields([field('c1', 'file_upload', { max_files: 0 }), field('c2', 'dropdown')]),
    );
    expect(several.details).toEqual({
      field_problems: [
        { path: 'steps[1].fields[0]', message: 'config.max_files must be at least 1' },
        { path: 'steps[1].fields[1]', message: 'config.options needs at least one option' },
      ],
    });

    // A payment amount is the send's check (invalid_payment); its currency's form is the template's (either case).
    expect(refuse(withFields([field('e1', 'payment', { amount_cents: 100, currency: 'us$' })])).message).toBe(
      'steps[1].fields[0]: config.currency must be a three-letter ISO 4217 code such as USD',
    );
    given([])
      .when(
        createCommand(teamId, withFields([field('e2', 'payment', { amount_cents: -1, currency: 'USD' })])),
      )
      .thenTypes(['template.created']);

    given([])
      .when(createCommand(teamId, withFields([field('d1', 'dropdown', { options: ['a', 'b'] })])))
      .then([
        {
          ...createdFor(teamId),
          data: {
            ...(createdFor(teamId).data as TemplateContent),
            ...withFields([field('d1', 'dropdown', { options: ['a', 'b'] })]),
          },
        } as TemplateEvent,
      ]);
  });
});
