/** Text for the client to read; the field's label stands in when the paragraph has no text. */
import type { FieldProps } from './field-props.ts';
import { configText } from './field-text.ts';

export function ParagraphField({ field }: FieldProps) {
  return (
    <div class="field-text">
      <p class="field-text__body">{configText(field, 'text') ?? field.label}</p>
    </div>
  );
}
