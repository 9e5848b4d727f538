/**
 * A date typed in the client's date format (the format is shown as a hint). A real date
 * is kept as YYYY-MM-DD; text that is not yet one is kept as typed, so nothing the client
 * wrote is lost on reload, and the step's check names it an invalid date as the server does.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { isCalendarDate, type AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame, LiveProblem, controlAria } from './FieldFrame.tsx';

export function DateField({ field, value, onChange, problem, ids, t, formats }: FieldProps) {
  const shown = (stored: unknown) =>
    typeof stored !== 'string' ? '' : isCalendarDate(stored) ? formats.date(stored) : stored;
  const [text, setText] = useState(() => shown(value));
  const [invalid, setInvalid] = useState(false);
  const sent = useRef<unknown>(value);

  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(shown(value));
      setInvalid(false);
    }
  }, [value]);

  const hintId = `${ids.input}-format`;
  const own: AnswerProblem | null = invalid ? { code: 'invalid_date' } : null;
  const shownProblem = own ?? problem;
  return (
    <FieldFrame field={field} ids={ids} problem={shownProblem} t={t} formats={formats}>
      <p id={hintId} class="field__hint">
        {t('field.dateHint', { format: formats.datePattern })}
      </p>
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
          const answer = parsed ?? typed.trim();
          if (answer !== sent.current) {
            sent.current = answer;
            onChange(answer);
          }
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
      <LiveProblem problem={own} t={t} formats={formats} />
    </FieldFrame>
  );
}
