import type { ComponentChildren } from 'preact';
import { t } from '../i18n.ts';

/**
 * A screen's list of rows: "Loading" until it is read (`items` null), `none` when it is
 * empty (if given), else each item's row (an `<li class="row">`) in a `<ul class="rows">`.
 */
export function Rows<T>({
  items,
  none,
  row,
}: {
  items: readonly T[] | null;
  none?: string;
  row: (item: T) => ComponentChildren;
}) {
  if (items === null) return <p class="loading">{t('app.loading')}</p>;
  if (none !== undefined && items.length === 0) return <p>{none}</p>;
  return <ul class="rows">{items.map(row)}</ul>;
}

/**
 * A button of one row, named for a screen reader with what it acts on (`of`, hidden from
 * sight); while `busy` it says so (aria-disabled) and stays focusable.
 */
export function RowButton({
  kind,
  of,
  busy,
  onClick,
  children,
}: {
  kind: 'secondary' | 'danger';
  of: string;
  busy?: boolean;
  onClick: () => void;
  children: ComponentChildren;
}) {
  return (
    <button type="button" class={`button-${kind}`} aria-disabled={busy || undefined} onClick={onClick}>
      {children}
      <span class="visually-hidden"> {of}</span>
    </button>
  );
}
