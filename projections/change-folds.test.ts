import { describe, expect, it } from 'vitest';
import { recorded } from './fold-test-events.ts';
import { foldTemplate } from './templates/fold.ts';

describe('folds into row changes', () => {
  it('templates: each step with its own fields, in order', () => {
    const step = (id: string, fields: string[]) => ({
      id,
      title: id,
      sort_order: 0,
      is_optional: false,
      fields: fields.map((field) => ({
        id: field,
        type: 'text',
        label: field,
        sort_order: 0,
        is_required: false,
        config: {},
      })),
    });
    const [change] = foldTemplate(
      [],
      recorded('template.created', {
        template_id: 'tpl',
        team_id: 't',
        gallery: false,
        name: 'n',
        description: null,
        vertical: null,
        settings: {},
        steps: [step('s1', ['f1', 'f2']), step('s2', ['f3'])],
        created_at: 'c',
      }),
    );
    if (change?.kind !== 'created') throw new Error('expected a created template');
    expect(change.steps.map((s) => [s.values[0], s.fields.map((field) => field[0])])).toEqual([
      ['s1', ['f1', 'f2']],
      ['s2', ['f3']],
    ]);
  });
});
