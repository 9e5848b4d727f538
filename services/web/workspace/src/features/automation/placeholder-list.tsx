import { useId, useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import type { Placeholder, RuleDraft } from './rules.ts';

/**
 * The placeholders a rule's texts may hold, each a button that writes it into the text field
 * last in focus (at its cursor), with what it stands for.
 */
export function PlaceholderList({
  id,
  placeholders,
  onInsert,
}: {
  id: string;
  placeholders: Placeholder[];
  onInsert: (placeholder: string) => void;
}) {
  return (
    <div id={id} class="hint">
      <p>{t('automations.placeholders')}</p>
      <ul>
        {placeholders.map((item) => (
          <li key={item.name}>
            <button
              type="button"
              class="button-secondary"
              aria-label={t('automations.insertPlaceholder', { placeholder: item.placeholder })}
              onClick={() => onInsert(item.placeholder)}
            >
              <code>{item.placeholder}</code>
            </button>{' '}
            {item.description}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Writes `text` into the input or textarea `id` at its cursor (replacing a selection), answers
 * the new value, and puts the cursor after it once the value is rendered.
 */
export function insertAtCursor(id: string, current: string, text: string): string {
  const element = document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null;
  const start = element?.selectionStart ?? current.length;
  const end = element?.selectionEnd ?? current.length;
  const next = current.slice(0, start) + text + current.slice(end);
  requestAnimationFrame(() => {
    element?.focus();
    element?.setSelectionRange(start + text.length, start + text.length);
  });
  return next;
}

/**
 * The rule's text fields' ids and the insertion of a placeholder into the one last in focus
 * (Send email: subject or body, the body until one is focused; Notify team member: message).
 */
export function usePlaceholderInsert(draft: RuleDraft, set: (change: Partial<RuleDraft>) => void) {
  const ids = { subject: useId(), body: useId(), message: useId() };
  const [target, setTarget] = useState<'subject' | 'body' | 'message'>('body');
  const insert = (placeholder: string) => {
    const field = draft.type === 'notify_member' ? 'message' : target === 'message' ? 'body' : target;
    set({ [field]: insertAtCursor(ids[field], draft[field], placeholder) });
  };
  return { ids, setTarget, insert };
}
