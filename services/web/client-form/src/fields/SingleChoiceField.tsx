/** One option of several, as a radio group under the field's label. */
import { choiceOptions } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { ChoiceInputs } from './ChoiceInputs.tsx';
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
      <ChoiceInputs
        type="radio"
        options={options}
        ids={ids}
        checked={(choice) => value === choice}
        onChoose={(choice) => onChange(choice)}
      />
    </FieldFrame>
  );
}
