import type { ComponentChildren } from 'preact';
import type { Translate } from '../i18n.ts';
import type { FieldReview } from '../sent-back.ts';
import { fieldIds } from './form/error-summary.tsx';

/**
 * The answer a link opened at (?field=): its control takes the focus, in view. A kind loaded
 * on demand (../fields/index.tsx) draws its control a moment after the step, so the focus
 * waits for it, but only until the person acts (a key or a pointer) or the returned stop is
 * called: it never pulls the focus from where they went.
 */
export function focusLinkedField(fieldId: string | null): () => void {
  if (!fieldId) return () => {};
  const focused = () => {
    const control = document.getElementById(fieldIds(fieldId).input);
    control?.scrollIntoView?.({ block: 'center' });
    control?.focus();
    return control !== null;
  };
  if (focused()) return () => {};
  const drawn = new MutationObserver(() => {
    if (focused()) stop();
  });
  const stop = () => {
    drawn.disconnect();
    removeEventListener('keydown', stop, true);
    removeEventListener('pointerdown', stop, true);
  };
  drawn.observe(document.body, { childList: true, subtree: true });
  addEventListener('keydown', stop, true);
  addEventListener('pointerdown', stop, true);
  return stop;
}

/**
 * A field with the team's review beside it: the reason (rejected) or the note (changes
 * requested) right above the field the client has to change; a field the client may not
 * change now (approved, or not sent back in the review state) is shown read-only inside
 * a disabled fieldset, so its controls can be read but not used.
 */
export function SentBackField({
  review,
  approved,
  locked,
  t,
  children,
}: {
  review: FieldReview | null;
  approved: boolean;
  locked: boolean;
  t: Translate;
  children: ComponentChildren;
}) {
  if (review) {
    const key = review.status === 'rejected' ? 'sentBack.rejected' : 'sentBack.changes';
    return (
      <div class="sent-back">
        <p class="sent-back__reason">{t(key, { reason: review.reason ?? '' })}</p>
        {children}
      </div>
    );
  }
  if (!locked) return <>{children}</>;
  return (
    <fieldset class="sent-back__locked" disabled>
      {approved ? <p class="sent-back__approved">{t('sentBack.approved')}</p> : null}
      {children}
    </fieldset>
  );
}
