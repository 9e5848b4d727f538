import type { FieldProps } from './field-props.ts';
import { TextInput } from './TextInput.tsx';

export function EmailField(props: FieldProps) {
  return (
    <TextInput
      {...props}
      inputProps={{
        type: 'email',
        autocomplete: 'email',
        inputMode: 'email',
        spellcheck: false,
        maxLength: 254,
      }}
    />
  );
}
