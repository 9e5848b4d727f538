/** One option of several, as a radio group under the field's label. */
import { choiceOptions } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame } from './FieldFrame.tsx';

export function SingleChoiceField({ field, value, onChange, problem, ids, t, formats }: FieldProps) {
  const options = choiceOptions(field);
  return (
    <FieldFrame
      field={field}
      ids={ids}
      problem={problem}
      t={t}
      formats={formats}
      group
      groupProps={{
        role: 'radiogroup',
        'aria-required': field.is_required ? 'true' : undefined,
        'aria-invalid': problem ? 'true' : undefined,
      }}
    >
      <div class="field__choices">
        {options.map((option, index) => {
          const id = index === 0 ? ids.input : `${ids.input}-${index}`;
          return (
            <div class="field__choice" key={option.value}>
              <input
                class="field__choice-input"
                type="radio"
                id={id}
                name={`${ids.input}-options`}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
              />
              <label class="field__choice-label" for={id}>
                {option.label}
              </label>
            </div>
          );
        })}
      </div>
    </FieldFrame>
  );
}
