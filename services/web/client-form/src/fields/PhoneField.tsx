import type { FieldProps } from './field-props.ts';
import { TextInput } from './TextInput.tsx';

export function PhoneField(props: FieldProps) {
  return (
    <TextInput
      {...props}
      inputProps={{ type: 'tel', autocomplete: 'tel', inputMode: 'tel', maxLength: 254 }}
    />
  );
}
