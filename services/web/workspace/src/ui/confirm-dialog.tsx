import type { ComponentChildren } from 'preact';
import type { Outcome } from '../api.ts';
import { t } from '../i18n.ts';
import { Dialog } from './dialog.tsx';
import { ErrorMessage } from './status.tsx';
import { useAction } from './use-action.ts';

/**
 * The one question before a change (delete, revoke, resend, rotate): `act` makes it and
 * `onDone` receives its answer; a refusal shows in words and the dialog stays. Cancel has
 * the focus, so Enter does not make the change by accident.
 */
export function ConfirmDialog<T>({
  title,
  intro,
  action,
  danger,
  act,
  onDone,
  onClose,
  notDone,
  after,
}: {
  title: string;
  intro: ComponentChildren;
  action: string;
  danger?: boolean;
  /** The change; null when it did not happen (a re-authentication was cancelled). */
  act: () => Promise<Outcome<T> | null>;
  onDone: (data: T) => void;
  onClose: () => void;
  /** Said as the error when `act` answers null; without it, nothing is said. */
  notDone?: string;
  /** Shown instead of the question once the change is made (a secret shown once). */
  after?: ComponentChildren;
}) {
  const { busy, error, setError, run, fail } = useAction();
  const confirm = async () => {
    const answer = await run(act);
    if (answer === undefined) return;
    if (answer === null) {
      if (notDone) setError(notDone);
    } else if (answer.ok) onDone(answer.data);
    else fail(answer.problem);
  };
  return (
    <Dialog title={title} onClose={onClose}>
      {after ?? (
        <>
          <p>{intro}</p>
          <ErrorMessage text={error} />
          <div class="actions">
            <button
              type="button"
              class={danger ? 'button-danger' : 'button-primary'}
              aria-disabled={busy || undefined}
              onClick={() => void confirm()}
            >
              {action}
            </button>
            <button type="button" class="button-secondary" onClick={onClose} autoFocus>
              {t('dialog.cancel')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
