import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { t } from '../i18n.ts';

/**
 * A modal dialog: the native <dialog> opened with showModal (focus stays inside, the page
 * behind is inert), labelled by its heading; Escape and the close button call onClose.
 */
export function Dialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      closeRef.current();
    };
    dialog.addEventListener('cancel', cancel);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      if (dialog.open) dialog.close();
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={headingId}>
      <div class="dialog-top">
        <h2 id={headingId}>{title}</h2>
        <button type="button" class="button-quiet" onClick={() => closeRef.current()}>
          {t('dialog.close')}
        </button>
      </div>
      {children}
    </dialog>
  );
}
