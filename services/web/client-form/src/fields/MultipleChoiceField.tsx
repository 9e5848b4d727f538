/** Any number of options, as a checkbox group under the field's label; the answer lists the chosen values in the options' order. */
import { choiceOptions } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { ChoiceInputs } from './ChoiceInputs.tsx';
import { FieldFrame } from './FieldFrame.tsx';

export function MultipleChoiceField({ field, value, onChange, problem, ids, t, formats }: FieldProps) {
  const options = choiceOptions(field);
  const chosen = new Set(Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []);
  const toggle = (choice: string, on: boolean) => {
    if (on) chosen.add(choice);
    else chosen.delete(choice);
    onChange(options.map((option) => option.value).filter((item) => chosen.has(item)));
  };
  return (
    <FieldFrame field={field} ids={ids} problem={problem} t={t} formats={formats} group>
      <ChoiceInputs
        type="checkbox"
        options={options}
        ids={ids}
        checked={(choice) => chosen.has(choice)}
        onChoose={toggle}
        invalid={!!problem}
      />
    </FieldFrame>
  );
}
