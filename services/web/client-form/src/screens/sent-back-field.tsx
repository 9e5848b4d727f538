import type { ComponentChildren } from 'preact';
import type { Translate } from '../i18n.ts';
import type { FieldReview } from '../sent-back.ts';
import { fieldIds } from './form/error-summary.tsx';

/** The answer a link opened at (?field=): its control takes the focus, in view. */
export function focusLinkedField(fieldId: string | null): void {
  if (!fieldId) return;
  const control = document.getElementById(fieldIds(fieldId).input);
  control?.scrollIntoView?.({ block: 'center' });
  control?.focus();
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
