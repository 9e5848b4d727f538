/** A heading inside a step (the step's title is the page's h1), with its optional text below. */
import type { FieldProps } from './field-props.ts';
import { configText } from './field-text.ts';

export function HeadingField({ field }: FieldProps) {
  const text = configText(field, 'text');
  return (
    <div class="field-text">
      <h2 class="field-text__heading">{field.label}</h2>
      {text ? <p class="field-text__body">{text}</p> : null}
    </div>
  );
}
