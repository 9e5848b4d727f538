import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import type { FieldErrors } from '../validation.ts';

/** The screen's one h1; it takes focus when the screen appears, so a screen reader starts there. */
export function ScreenHeading({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'label' | 'value' | 'onInput'>;

/** A labelled input with an optional hint and error, both tied to it by aria-describedby. */
export function Field({
  label,
  value,
  onValue,
  hint,
  error,
  ...input
}: InputProps & {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | null;
}) {
  const generated = useId();
  const id = typeof input.id === 'string' ? input.id : generated;
  const ref = useRef<HTMLInputElement>(null);
  // The autofocus attribute only works when a page or dialog opens; a field that appears
  // later (the two-factor code) takes focus here.
  useEffect(() => {
    if (input.autoFocus) ref.current?.focus();
  }, []);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint ? (
        <div id={`${id}-hint`} class="hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      ) : null}
      <input
        {...input}
        ref={ref}
        id={id}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => onValue((event.target as HTMLInputElement).value)}
      />
    </div>
  );
}

/** A polite live region for progress and success; always in the page so changes are announced. */
export function Status({ text }: { text: string | null }) {
  return (
    <p role="status" class="status">
      {text ?? ''}
    </p>
  );
}

/** An assertive live region for a failure. */
export function ErrorMessage({ text }: { text: string | null }) {
  return (
    <div role="alert" class={text ? 'error-message' : 'error-empty'}>
      {text ? <p>{text}</p> : null}
    </div>
  );
}

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

/** A link inside the app: navigates without reloading the page. */
export function Link({
  href,
  navigate,
  children,
  current,
}: {
  href: string;
  navigate: (path: string) => void;
  children: ComponentChildren;
  current?: boolean;
}) {
  return (
    <a
      href={href}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/**
 * A form's field problems: `check(errors)` shows them under their fields and moves focus to
 * the first invalid one; it answers true when there is none.
 */
export function useFieldCheck() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [focusTurn, setFocusTurn] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (focusTurn === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusTurn]);
  const check = useCallback((found: FieldErrors) => {
    setErrors(found);
    if (Object.keys(found).length === 0) return true;
    setFocusTurn((turn) => turn + 1);
    return false;
  }, []);
  return { errors, check, form };
}
