import { beforeAll, describe, expect, it } from 'vitest';
import { speak } from '../../i18n.ts';
import {
  fromView,
  locateMessage,
  moveItem,
  newField,
  newStep,
  problemsOf,
  sampleTextFields,
  sentence,
  toDefinition,
  withTranslation,
  type BuilderTemplate,
} from './template-model.ts';

// The builder's sentences are in the texts a signed-in member loads.
beforeAll(() => speak('en-US'));

const template = (): BuilderTemplate => {
  const step = newStep('s1', 'About you');
  step.fields = [newField('single_choice', 'kind', 'You are'), newField('short_text', 'company', 'Company')];
  return {
    id: 't',
    version: 1,
    name: 'Intake',
    description: null,
    vertical: null,
    settings: {},
    translations: null,
    steps: [step],
  };
};

describe('template builder model', () => {
  it('orders steps and fields by sort_order and writes the order back as sort_order', () => {
    const view = {
      id: 't',
      version: 2,
      name: 'Intake',
      description: null,
      vertical: null,
      settings: {},
      translations: null,
      steps: [
        {
          id: 'b',
          title: 'B',
          sort_order: 5,
          fields: [
            { id: 'y', type: 'email', label: 'Y', sort_order: 9 },
            { id: 'x', type: 'email', label: 'X', sort_order: 1 },
          ],
        },
        { id: 'a', title: 'A', sort_order: 1, fields: [] },
      ],
    };
    const model = fromView(view);
    expect(model.steps.map((s) => s.id)).toEqual(['a', 'b']);
    expect(model.steps[1]!.fields.map((f) => f.id)).toEqual(['x', 'y']);
    const definition = toDefinition(model);
    expect(definition.steps.map((s) => s.sort_order)).toEqual([0, 1]);
    expect(definition.steps[1]!.fields.map((f) => [f.id, f.sort_order])).toEqual([
      ['x', 0],
      ['y', 1],
    ]);
  });

  it('moves an item and leaves out-of-range moves alone', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });

  it('a new signature field starts with the sample agreement and blocks sends until replaced', () => {
    const model = template();
    model.steps[0]!.fields.push(newField('signature', 'sig', 'Sign'));
    expect(sampleTextFields(model).map((f) => f.id)).toEqual(['sig']);
    model.steps[0]!.fields[2]!.config = { agreement_text: 'Our letter', is_sample_text: false };
    expect(sampleTextFields(model)).toEqual([]);
  });

  it('finds what the service would refuse, in sentences, by field', () => {
    const model = template();
    model.steps[0]!.fields[0]!.config = { options: [] };
    model.steps[0]!.fields[1]!.conditional_rules = {
      show_when: { field_id: 'kind', operator: 'equals', value: '' },
    };
    const found = problemsOf(model);
    expect(found.fields.kind).toEqual(['Options needs at least one option.']);
    expect(found.fields.company).toEqual(['The show-when rule needs a value to compare with.']);
    expect(found.count).toBe(2);
    model.name = ' ';
    expect(problemsOf(model).template).toEqual(['Give the template a name.']);
  });

  it('keeps translations per locale and drops empty ones', () => {
    const one = withTranslation(null, 'de-DE', 'label', 'Name');
    expect(one).toEqual({ 'de-DE': { label: 'Name' } });
    expect(withTranslation(one, 'de-DE', 'label', '')).toBeNull();
  });

  it('places a server message beside its field', () => {
    const model = template();
    expect(locateMessage(model, 'steps[0].fields[1]: config.max_length must be at least 1')).toEqual({
      stepId: 's1',
      fieldId: 'company',
      text: 'Max length must be at least 1.',
    });
    expect(sentence('config.options[2] repeats the value "a"')).toBe('Option 3 repeats the value "a".');
  });
});
