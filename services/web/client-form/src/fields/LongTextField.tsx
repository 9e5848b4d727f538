/**
 * Several lines of text with the characters left below it. The count on screen follows
 * every keystroke; screen readers hear it once typing pauses, so it does not talk over
 * the client.
 */
import { useEffect, useState } from 'preact/hooks';
import { textLimit } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame, textControl } from './FieldFrame.tsx';

const ANNOUNCE_AFTER_MS = 1200;

export function LongTextField(props: FieldProps) {
  const { field, value, onChange, problem, ids, t, formats } = props;
  const text = typeof value === 'string' ? value : '';
  const limit = textLimit(field);
  const left = t('field.charactersLeft', { count: Math.max(0, limit - text.length) });
  const [typing, setTyping] = useState(false);
  const [announced, setAnnounced] = useState('');
  useEffect(() => {
    if (!typing) return undefined;
    const timer = setTimeout(() => setAnnounced(left), ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [left, typing]);
  const countId = `${ids.input}-count`;
  return (
    <FieldFrame field={field} ids={ids} problem={problem} t={t} formats={formats}>
      <textarea
        class="field__input field__textarea"
        rows={5}
        maxLength={limit}
        onInput={(event) => {
          setTyping(true);
          onChange(event.currentTarget.value);
        }}
        {...textControl(props, countId)}
      />
      <p id={countId} class="field__hint" aria-hidden="true">
        {left}
      </p>
      <p class="field-sr-only" aria-live="polite">
        {announced}
      </p>
    </FieldFrame>
  );
}
