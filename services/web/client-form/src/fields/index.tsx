/**
 * One field of a step, drawn by the component of its type. A type the page does not know
 * (a template newer than the page) shows as a paragraph with its label, so nothing breaks.
 */
import type { FunctionComponent } from 'preact';
import type { FieldProps } from './field-props.ts';
import { ConsentField } from './ConsentField.tsx';
import { DateField } from './DateField.tsx';
import { DropdownField } from './DropdownField.tsx';
import { EmailField } from './EmailField.tsx';
import { FileUploadField } from './FileUploadField.tsx';
import { HeadingField } from './HeadingField.tsx';
import { LongTextField } from './LongTextField.tsx';
import { MultipleChoiceField } from './MultipleChoiceField.tsx';
import { NumberField } from './NumberField.tsx';
import { ParagraphField } from './ParagraphField.tsx';
import { PaymentField } from './PaymentField.tsx';
import { PhoneField } from './PhoneField.tsx';
import { ShortTextField } from './ShortTextField.tsx';
import { SignatureField } from './SignatureField.tsx';
import { SingleChoiceField } from './SingleChoiceField.tsx';
import './fields.css';

export type { FieldProps } from './field-props.ts';
export { paymentReceived } from './PaymentField.tsx';

const COMPONENTS: Record<string, FunctionComponent<FieldProps>> = {
  short_text: ShortTextField,
  long_text: LongTextField,
  email: EmailField,
  phone: PhoneField,
  number: NumberField,
  date: DateField,
  single_choice: SingleChoiceField,
  multiple_choice: MultipleChoiceField,
  dropdown: DropdownField,
  checkbox: ConsentField,
  file_upload: FileUploadField,
  signature: SignatureField,
  payment: PaymentField,
  heading: HeadingField,
  paragraph: ParagraphField,
};

export function Field(props: FieldProps) {
  const Component = COMPONENTS[props.field.type] ?? ParagraphField;
  return <Component {...props} />;
}
