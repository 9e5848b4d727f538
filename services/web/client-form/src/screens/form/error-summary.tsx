/** The problems of a step in one list at its top; each links to its field. */
import type { AnswerProblem } from '../../../../../templates/contract/field-catalogue.ts';
import type { FieldIds, LocalizedField } from '../../fields/field-props.ts';
import type { Formats, Translate } from '../../i18n.ts';
import { problemText } from '../../problems.ts';

/** The element ids of a field's input, help and error text. */
export function fieldIds(fieldId: string): FieldIds {
  const safe = fieldId.replace(/[^A-Za-z0-9_-]/g, '_');
  return { input: `field-${safe}`, help: `field-${safe}-help`, error: `field-${safe}-error` };
}

export function ErrorSummary({
  fields,
  problems,
  t,
  formats,
  refEl,
}: {
  fields: LocalizedField[];
  problems: Map<string, AnswerProblem>;
  t: Translate;
  formats: Formats;
  refEl: { current: HTMLDivElement | null };
}) {
  if (fields.length === 0) return null;
  return (
    <div class="error-summary" ref={refEl} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{t('error.summary', { count: fields.length })}</h2>
      <ul>
        {fields.map((field) => {
          const ids = fieldIds(field.id);
          return (
            <li key={field.id}>
              <a
                href={`#${ids.input}`}
                onClick={(event) => {
                  event.preventDefault();
                  const target =
                    document.getElementById(ids.input) ??
                    document.querySelector<HTMLElement>(`[id^="${ids.input}"]`);
                  target?.focus();
                  target?.scrollIntoView?.({ block: 'center' });
                }}
              >
                {field.label}: {problemText(problems.get(field.id)!, t, formats)}
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
