/** One option from a list, for long lists; the empty first option ("Choose…") means no answer. */
import { choiceOptions } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame, controlAria } from './FieldFrame.tsx';

export function DropdownField({ field, value, onChange, problem, ids, t, formats }: FieldProps) {
  const options = choiceOptions(field);
  const current = typeof value === 'string' && options.some((option) => option.value === value) ? value : '';
  return (
    <FieldFrame field={field} ids={ids} problem={problem} t={t} formats={formats}>
      <select
        class="field__input field__select"
        name={field.id}
        value={current}
        onChange={(event) => onChange(event.currentTarget.value)}
        {...controlAria(field, ids, problem)}
      >
        <option value="">{t('field.choose')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
