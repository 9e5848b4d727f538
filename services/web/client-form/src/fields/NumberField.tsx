/**
 * A number typed the way the client writes numbers (the page's decimal separator). A text
 * input with the decimal keyboard, because <input type=number> reads only the browser's
 * own locale and drops text it cannot read. The answer is a JSON number, or null while the
 * text is blank or not yet a number; that text keeps showing and, once the client leaves
 * the field, gets the not-a-number message.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame, LiveProblem, controlAria } from './FieldFrame.tsx';
import { configText } from './field-text.ts';
import { formatNumberForInput, parseLocaleNumber, symbolsOf } from './number-input.ts';

export function NumberField({ field, value, onChange, problem, ids, t, formats }: FieldProps) {
  const symbols = useMemo(() => symbolsOf(formats.number), [formats]);
  const shown = (stored: unknown) =>
    typeof stored === 'number' && Number.isFinite(stored) ? formatNumberForInput(stored, symbols) : '';
  const [text, setText] = useState(() => shown(value));
  const [unreadable, setUnreadable] = useState(false);
  const sent = useRef<unknown>(value);

  // An answer from elsewhere (a reload, another tab) replaces the text; our own does not.
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(shown(value));
      setUnreadable(false);
    }
  }, [value]);

  const unit = configText(field, 'unit');
  const unitId = `${ids.input}-unit`;
  const own: AnswerProblem | null = unreadable ? { code: 'not_a_number' } : null;
  const shownProblem = own ?? problem;
  return (
    <FieldFrame field={field} ids={ids} problem={shownProblem} t={t} formats={formats}>
      <div class="field__with-unit">
        <input
          class="field__input field__input--number"
          type="text"
          inputMode="decimal"
          autocomplete="off"
          name={field.id}
          value={text}
          onInput={(event) => {
            const typed = event.currentTarget.value;
            const parsed = parseLocaleNumber(typed, symbols);
            setText(typed);
            if (parsed !== undefined) setUnreadable(false);
            const answer = parsed ?? null;
            if (answer !== sent.current) {
              sent.current = answer;
              onChange(answer);
            }
          }}
          onBlur={(event) =>
            setUnreadable(parseLocaleNumber(event.currentTarget.value, symbols) === undefined)
          }
          {...controlAria(field, ids, shownProblem, unit && unitId)}
        />
        {unit ? (
          <span class="field__unit">
            <span aria-hidden="true">{unit}</span>
            <span id={unitId} class="field-sr-only">
              {t('field.numberUnit', { unit })}
            </span>
          </span>
        ) : null}
      </div>
      <LiveProblem problem={own} t={t} formats={formats} />
    </FieldFrame>
  );
}
