/**
 * A date in the client's own date format (the format is shown as a hint), typed with any of
 * / . - as separators (a de-DE client's 23.06.1990 and a ja-JP client's 1990/06/23 are both
 * 1990-06-23), and, where the device offers one, picked from its native calendar
 * (<input type="date">) beside it. A real date is kept as YYYY-MM-DD; text that is not yet
 * one is kept as typed, so nothing the client wrote is lost on reload, and the step's check
 * names it an invalid date as the server does.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { isCalendarDate, type AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame, LiveProblem, controlAria } from './FieldFrame.tsx';

/** Whether this browser has a native date control (an unknown type falls back to text). */
function offersNativeDate(): boolean {
  if (typeof document === 'undefined') return false;
  const probe = document.createElement('input');
  probe.setAttribute('type', 'date');
  return probe.type === 'date';
}

export function DateField({ field, value, onChange, problem, ids, t, formats }: FieldProps) {
  const shown = (stored: unknown) =>
    typeof stored !== 'string' ? '' : isCalendarDate(stored) ? formats.date(stored) : stored;
  const [text, setText] = useState(() => shown(value));
  const [invalid, setInvalid] = useState(false);
  const [native] = useState(offersNativeDate);
  const sent = useRef<unknown>(value);

  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(shown(value));
      setInvalid(false);
    }
  }, [value]);

  const answer = (next: string) => {
    if (next !== sent.current) {
      sent.current = next;
      onChange(next);
    }
  };

  const hintId = `${ids.input}-format`;
  const own: AnswerProblem | null = invalid ? { code: 'invalid_date' } : null;
  const shownProblem = own ?? problem;
  const picked = typeof value === 'string' && isCalendarDate(value) ? value : '';
  return (
    <FieldFrame field={field} ids={ids} problem={shownProblem} t={t} formats={formats}>
      <p id={hintId} class="field__hint">
        {t('field.dateHint', { format: formats.datePattern })}
      </p>
      <div class="field__date">
        <input
          class="field__input field__input--date"
          type="text"
          autocomplete="off"
          name={field.id}
          maxLength={40}
          value={text}
          onInput={(event) => {
            const typed = event.currentTarget.value;
            setText(typed);
            const parsed = formats.parseDate(typed);
            if (parsed || typed.trim() === '') setInvalid(false);
            answer(parsed ?? typed.trim());
          }}
          onBlur={(event) => {
            const typed = event.currentTarget.value.trim();
            const parsed = typed === '' ? null : formats.parseDate(typed);
            setInvalid(typed !== '' && !parsed);
            // Shows a date the client typed as 1.2.2024 the way the page writes dates.
            if (parsed) setText(formats.date(parsed));
          }}
          {...controlAria(field, ids, shownProblem, hintId)}
        />
        {native ? (
          <input
            class="field__date-picker"
            type="date"
            tabIndex={-1}
            aria-label={t('field.datePick', { label: field.label })}
            value={picked}
            onChange={(event) => {
              const chosen = event.currentTarget.value;
              if (!isCalendarDate(chosen)) return;
              setText(formats.date(chosen));
              setInvalid(false);
              answer(chosen);
            }}
          />
        ) : null}
      </div>
      <LiveProblem problem={own} t={t} formats={formats} />
    </FieldFrame>
  );
}
