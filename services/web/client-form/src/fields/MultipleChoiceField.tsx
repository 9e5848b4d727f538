/** Any number of options, as a checkbox group under the field's label; the answer lists the chosen values in the options' order. */
import { choiceOptions } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { ChoiceGroup } from './ChoiceGroup.tsx';

export function MultipleChoiceField(props: FieldProps) {
  const { field, value, onChange } = props;
  const chosen = new Set(Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []);
  const toggle = (choice: string, on: boolean) => {
    if (on) chosen.add(choice);
    else chosen.delete(choice);
    onChange(
      choiceOptions(field)
        .map((option) => option.value)
        .filter((item) => chosen.has(item)),
    );
  };
  return (
    <ChoiceGroup {...props} type="checkbox" checked={(choice) => chosen.has(choice)} onChoose={toggle} />
  );
}
