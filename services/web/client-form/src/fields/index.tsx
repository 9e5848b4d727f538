/**
 * One field of a step, drawn by the component of its type. A type the page does not know
 * (a template newer than the page) shows as a paragraph with its label, so nothing breaks.
 *
 * The heavy kinds most first screens do not hold (the signature with its drawing pad, the
 * payment, file uploads) are chunks of their own, loaded when a step first shows one
 * (preact/compat's lazy and Suspense): the form's first script stays small, and until the
 * kind is loaded its place says so politely.
 */
import type { FunctionComponent } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import type { FieldProps } from './field-props.ts';
import { ConsentField } from './ConsentField.tsx';
import { DateField } from './DateField.tsx';
import { DropdownField } from './DropdownField.tsx';
import { EmailField } from './EmailField.tsx';
import { HeadingField } from './HeadingField.tsx';
import { LongTextField } from './LongTextField.tsx';
import { MultipleChoiceField } from './MultipleChoiceField.tsx';
import { NumberField } from './NumberField.tsx';
import { ParagraphField } from './ParagraphField.tsx';
import { PhoneField } from './PhoneField.tsx';
import { ShortTextField } from './ShortTextField.tsx';
import { SingleChoiceField } from './SingleChoiceField.tsx';
import './fields.css';

export type { FieldProps } from './field-props.ts';

/** The kinds loaded on demand, each its own chunk; the placeholder stands in while one loads. */
const ON_DEMAND: Record<string, FunctionComponent<FieldProps>> = {
  file_upload: lazy(() => import('./FileUploadField.tsx').then((m) => ({ default: m.FileUploadField }))),
  signature: lazy(() => import('./SignatureField.tsx').then((m) => ({ default: m.SignatureField }))),
  payment: lazy(() => import('./PaymentField.tsx').then((m) => ({ default: m.PaymentField }))),
};

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
  heading: HeadingField,
  paragraph: ParagraphField,
};

export function Field(props: FieldProps) {
  const OnDemand = ON_DEMAND[props.field.type];
  if (!OnDemand) {
    const Component = COMPONENTS[props.field.type] ?? ParagraphField;
    return <Component {...props} />;
  }
  return (
    <Suspense
      fallback={
        <p class="field field--loading" role="status">
          {props.t('app.loading')}
        </p>
      }
    >
      <OnDemand {...props} />
    </Suspense>
  );
}
