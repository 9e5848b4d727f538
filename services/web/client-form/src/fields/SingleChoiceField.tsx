/** One option of several, as a radio group under the field's label. */
import type { FieldProps } from './field-props.ts';
import { ChoiceGroup } from './ChoiceGroup.tsx';

export function SingleChoiceField(props: FieldProps) {
  const { value, onChange } = props;
  return (
    <ChoiceGroup
      {...props}
      type="radio"
      checked={(choice) => value === choice}
      onChoose={(choice) => onChange(choice)}
    />
  );
}
