/** One line of text: the shared control of short_text, email and phone fields. */
import type { JSX } from 'preact';
import type { FieldProps } from './field-props.ts';
import { FieldFrame, controlAria } from './FieldFrame.tsx';

export function TextInput(props: FieldProps & { inputProps: JSX.InputHTMLAttributes<HTMLInputElement> }) {
  const { field, value, onChange, problem, ids, t, formats, inputProps } = props;
  const placeholder = typeof field.config?.placeholder === 'string' ? field.config.placeholder : undefined;
  return (
    <FieldFrame field={field} ids={ids} problem={problem} t={t} formats={formats}>
      <input
        class="field__input"
        name={field.id}
        value={typeof value === 'string' ? value : ''}
        placeholder={placeholder}
        onInput={(event) => onChange(event.currentTarget.value)}
        {...inputProps}
        {...controlAria(field, ids, problem)}
      />
    </FieldFrame>
  );
}
