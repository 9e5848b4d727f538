import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A field's frame: its label, then its hint and its error (ids `<id>-hint`, `<id>-error`),
 * then the control; `describedBy` names the two for the control's aria-describedby.
 */
export function FieldFrame({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ComponentChildren;
  error?: string | null;
  children: ComponentChildren;
}) {
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
      {children}
    </div>
  );
}

export const describedBy = (
  id: string,
  hint?: ComponentChildren,
  error?: string | null,
): string | undefined =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

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
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <input
        {...input}
        ref={ref}
        id={id}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onInput={(event) => onValue((event.target as HTMLInputElement).value)}
      />
    </FieldFrame>
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
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(event) => onValue((event.target as HTMLSelectElement).value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A form's primary submit button; while the form is busy it says so (aria-disabled) and stays focusable. */
export function SubmitButton({ busy, children }: { busy: boolean; children: ComponentChildren }) {
  return (
    <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
      {children}
    </button>
  );
}

/**
 * A group of checkboxes under a legend (`<idPrefix>-<n>` each); its error, if any, describes
 * the group. `onChosen(value, on)` says which box changed.
 */
export function CheckGroup({
  legend,
  idPrefix,
  errorId,
  error,
  options,
  chosen,
  onChosen,
}: {
  legend: string;
  idPrefix: string;
  errorId: string;
  error: string | null;
  options: readonly { value: string; label: string }[];
  chosen: readonly string[];
  onChosen: (value: string, on: boolean) => void;
}) {
  return (
    <fieldset class={`field${error ? ' field-invalid' : ''}`} aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {error ? (
        <p id={errorId} class="field-error">
          {error}
        </p>
      ) : null}
      {options.map((option, index) => (
        <div class="check" key={option.value}>
          <input
            type="checkbox"
            id={`${idPrefix}-${index}`}
            checked={chosen.includes(option.value)}
            onChange={(event) => onChosen(option.value, (event.target as HTMLInputElement).checked)}
          />
          <label for={`${idPrefix}-${index}`}>{option.label}</label>
        </div>
      ))}
    </fieldset>
  );
}
