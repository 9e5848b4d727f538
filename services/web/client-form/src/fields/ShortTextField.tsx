import { textLimit } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { TextInput } from './TextInput.tsx';

export function ShortTextField(props: FieldProps) {
  return <TextInput {...props} inputProps={{ type: 'text', maxLength: textLimit(props.field) }} />;
}
