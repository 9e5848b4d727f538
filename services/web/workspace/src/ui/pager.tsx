import { t } from '../i18n.ts';

/** Previous and next over a list read `size` at a time from `offset`; shown only with more than one page. */
export function Pager({
  offset,
  size,
  total,
  onOffset,
}: {
  offset: number;
  size: number;
  total: number;
  onOffset: (offset: number) => void;
}) {
  const pages = Math.ceil(total / size);
  if (pages <= 1) return null;
  const label = t('clients.page', { page: offset / size + 1, pages });
  return (
    <nav class="actions" aria-label={label}>
      <button
        type="button"
        class="button-secondary"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - size))}
      >
        {t('clients.previous')}
      </button>
      <span>{label}</span>
      <button
        type="button"
        class="button-secondary"
        disabled={offset + size >= total}
        onClick={() => onOffset(offset + size)}
      >
        {t('clients.next')}
      </button>
    </nav>
  );
}
