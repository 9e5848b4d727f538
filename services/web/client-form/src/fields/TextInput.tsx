/** One line of text: the shared control of short_text, email and phone fields. */
import type { JSX } from 'preact';
import type { FieldProps } from './field-props.ts';
import { FieldFrame, textControl } from './FieldFrame.tsx';

export function TextInput(props: FieldProps & { inputProps: JSX.InputHTMLAttributes<HTMLInputElement> }) {
  const { field, onChange, problem, ids, t, formats, inputProps } = props;
  return (
    <FieldFrame field={field} ids={ids} problem={problem} t={t} formats={formats}>
      <input
        class="field__input"
        onInput={(event) => onChange(event.currentTarget.value)}
        {...inputProps}
        {...textControl(props)}
      />
    </FieldFrame>
  );
}
