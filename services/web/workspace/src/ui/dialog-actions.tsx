import { t } from '../i18n.ts';

/**
 * A dialog's two buttons: its action, then the quiet one that closes it (Cancel unless told).
 * Without `onAction` the action submits the dialog's form; `disabled` holds it while busy.
 */
export function DialogActions({
  action,
  danger,
  disabled,
  onAction,
  onCancel,
  cancel = t('dialog.cancel'),
}: {
  action: string;
  danger?: boolean;
  disabled?: boolean;
  onAction?: () => void;
  onCancel: () => void;
  cancel?: string;
}) {
  return (
    <div class="actions">
      <button
        type={onAction ? 'button' : 'submit'}
        class={danger ? 'button-danger' : 'button-primary'}
        disabled={disabled}
        onClick={onAction}
      >
        {action}
      </button>
      <button type="button" class="button-quiet" onClick={onCancel}>
        {cancel}
      </button>
    </div>
  );
}
