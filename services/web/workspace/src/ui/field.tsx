import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'label' | 'value' | 'onInput'>;

/** A labelled input with an optional hint and error, both tied to it by aria-describedby. */
export function Field({
  label,
  value,
  onValue,
  hint,
  error,
  ...input
}: InputProps & {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | null;
}) {
  const generated = useId();
  const id = typeof input.id === 'string' ? input.id : generated;
  const ref = useRef<HTMLInputElement>(null);
  // The autofocus attribute only works when a page or dialog opens; a field that appears
  // later (the two-factor code) takes focus here.
  useEffect(() => {
    if (input.autoFocus) ref.current?.focus();
  }, []);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint ? (
        <div id={`${id}-hint`} class="hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      ) : null}
      <input
        {...input}
        ref={ref}
        id={id}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => onValue((event.target as HTMLInputElement).value)}
      />
    </div>
  );
}

/**
 * A labelled select: `options` in order, each with its text (and its language, for a
 * language's own name); a hint and an error, if any, are tied to it by aria-describedby.
 */
export function Select({
  id: givenId,
  label,
  value,
  onValue,
  options,
  hint,
  error,
  disabled,
}: {
  id?: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  options: readonly { value: string; label: string; lang?: string }[];
  hint?: ComponentChildren;
  error?: string | null;
  disabled?: boolean;
}) {
  const generated = useId();
  const id = givenId ?? generated;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint ? (
        <div id={`${id}-hint`} class="hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      ) : null}
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => onValue((event.target as HTMLSelectElement).value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
