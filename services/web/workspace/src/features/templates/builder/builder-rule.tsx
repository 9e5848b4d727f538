import {
  needsValue,
  RULE_OPERATORS,
  showWhenOf,
  type RuleOperator,
} from '../../../../../../templates/contract/conditional-rules.ts';
import { choiceOptions } from '../../../../../../templates/contract/field-catalogue.ts';
import { t } from '../../../i18n.ts';
import type { BuilderField } from '../template-model.ts';
import { Field, Select } from '../../../ui/index.ts';

export interface RuleCandidate {
  field: BuilderField;
  /** "Step title: field label", to choose from. */
  name: string;
}

/**
 * The show-when rule of a step or field (services/templates/contract/conditional-rules.ts): always
 * shown, or shown when another field's answer equals, contains, is empty or is not empty.
 * A rule of a shape the builder does not know (stored through the operator API) is said
 * so: it reads as always shown until replaced.
 */
export function RuleEditor({
  idPrefix,
  rules,
  candidates,
  onChange,
}: {
  idPrefix: string;
  rules: unknown;
  candidates: RuleCandidate[];
  onChange: (rules: unknown) => void;
}) {
  const rule = showWhenOf(rules);
  const unknownShape = rules !== null && rules !== undefined && rule === null;
  const fieldId = rule?.field_id ?? '';
  const operator: RuleOperator = rule?.operator ?? 'equals';
  const value = rule?.value ?? '';
  const target = candidates.find((candidate) => candidate.field.id === fieldId)?.field;
  const write = (next: { field_id: string; operator: RuleOperator; value?: string }) =>
    onChange({
      show_when: needsValue(next.operator)
        ? { field_id: next.field_id, operator: next.operator, value: next.value ?? '' }
        : { field_id: next.field_id, operator: next.operator },
    });
  const choices = target ? choiceOptions(target) : [];

  return (
    <fieldset class="field builder-rule">
      <legend>{t('rule.legend')}</legend>
      {unknownShape ? <p class="hint">{t('rule.unknownShape')}</p> : null}
      <Select
        id={`${idPrefix}-when`}
        label={t('rule.shown')}
        value={rule ? 'when' : 'always'}
        onValue={(mode) => {
          if (mode === 'always') onChange(null);
          else if (candidates[0]) write({ field_id: candidates[0].field.id, operator: 'equals', value: '' });
        }}
        options={[
          { value: 'always', label: t('rule.always') },
          ...(candidates.length > 0 ? [{ value: 'when', label: t('rule.onlyWhen') }] : []),
        ]}
      />
      {rule ? (
        <div class="builder-rule-parts">
          <Select
            id={`${idPrefix}-field`}
            label={t('rule.field')}
            value={fieldId}
            onValue={(next) => write({ field_id: next, operator, value })}
            options={[
              ...(target ? [] : [{ value: fieldId, label: t('rule.missingField') }]),
              ...candidates.map((candidate) => ({ value: candidate.field.id, label: candidate.name })),
            ]}
          />
          <Select
            id={`${idPrefix}-operator`}
            label={t('rule.operator')}
            value={operator}
            onValue={(next) => write({ field_id: fieldId, operator: next as RuleOperator, value })}
            options={RULE_OPERATORS.map((op) => ({ value: op, label: t(`rule.op.${op}`) }))}
          />
          {needsValue(operator) ? (
            choices.length > 0 && operator === 'equals' ? (
              <Select
                id={`${idPrefix}-value`}
                label={t('rule.value')}
                value={value}
                onValue={(next) => write({ field_id: fieldId, operator, value: next })}
                options={[
                  { value: '', label: t('rule.pick') },
                  ...choices.map((option) => ({ value: option.value, label: option.label })),
                ]}
              />
            ) : (
              <Field
                id={`${idPrefix}-value`}
                label={t('rule.value')}
                value={value}
                onValue={(next) => write({ field_id: fieldId, operator, value: next })}
              />
            )
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
