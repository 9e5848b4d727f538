/** A heading inside a step (the step's title is the h2), with its optional text below. */
import type { FieldProps } from './field-props.ts';
import { configText } from './field-text.ts';

export function HeadingField({ field }: FieldProps) {
  const text = configText(field, 'text');
  return (
    <div class="field-text">
      <h3 class="field-text__heading">{field.label}</h3>
      {text ? <p class="field-text__body">{text}</p> : null}
    </div>
  );
}
