import type { ComponentChildren } from 'preact';
import { describedBy, FieldFrame } from '../../../ui/index.ts';

/** Small labelled controls of the template builder, each with its own id (the step's or field's id in it). */

export function TextArea({
  id,
  label,
  value,
  onValue,
  hint,
  rows = 3,
}: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  rows?: number;
}) {
  return (
    <FieldFrame id={id} label={label} hint={hint}>
      <textarea
        id={id}
        rows={rows}
        value={value}
        aria-describedby={describedBy(id, hint)}
        onInput={(event) => onValue((event.target as HTMLTextAreaElement).value)}
      />
    </FieldFrame>
  );
}

export function Check({
  id,
  label,
  checked,
  onChecked,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
}) {
  return (
    <div class="check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChecked((event.target as HTMLInputElement).checked)}
      />
      <label for={id}>{label}</label>
    </div>
  );
}

/** A number field: empty means "not set" (undefined). */
export function NumberInput({
  id,
  label,
  value,
  onValue,
  step,
  min,
}: {
  id: string;
  label: string;
  value: unknown;
  onValue: (value: number | undefined) => void;
  step?: string;
  min?: number;
}) {
  return (
    <FieldFrame id={id} label={label}>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        step={step ?? 'any'}
        min={min}
        value={typeof value === 'number' ? String(value) : ''}
        onInput={(event) => {
          const text = (event.target as HTMLInputElement).value.trim();
          const number = Number(text);
          onValue(text === '' || !Number.isFinite(number) ? undefined : number);
        }}
      />
    </FieldFrame>
  );
}

/** The problems of a step or field, in words, beside it (announced when they appear). */
export function Problems({ id, messages }: { id: string; messages: readonly string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <ul id={id} class="builder-problems field-error">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}
