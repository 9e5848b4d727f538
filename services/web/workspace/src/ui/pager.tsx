import { t } from '../i18n.ts';

/**
 * What the pager shows: its label (a message key and its values) and whether this is the last
 * page; null when everything fits on one page.
 */
export function pagerState({
  offset,
  size,
  total,
  capped,
  shown,
}: {
  offset: number;
  size: number;
  total: number;
  capped: boolean;
  shown: number;
}): { label: string; values: Record<string, number>; last: boolean } | null {
  const pages = Math.ceil(total / size);
  const page = offset / size + 1;
  if (!capped) {
    return pages <= 1
      ? null
      : { label: 'clients.page', values: { page, pages }, last: offset + size >= total };
  }
  const last = shown < size;
  return page <= pages
    ? { label: 'clients.pageOfMore', values: { page, pages }, last }
    : { label: 'clients.pageOnly', values: { page }, last };
}

/**
 * Previous and next over a list read `size` at a time from `offset`; shown only with more than
 * one page. A `capped` total (decision 0104) says only that more than `total` match: the pages
 * read "of more than", and Next stays until a page comes back short (`shown` rows).
 */
export function Pager({
  offset,
  size,
  total,
  capped = false,
  shown = size,
  onOffset,
}: {
  offset: number;
  size: number;
  total: number;
  capped?: boolean;
  shown?: number;
  onOffset: (offset: number) => void;
}) {
  const state = pagerState({ offset, size, total, capped, shown });
  if (!state) return null;
  const label = t(state.label, state.values);
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
        disabled={state.last}
        onClick={() => onOffset(offset + size)}
      >
        {t('clients.next')}
      </button>
    </nav>
  );
}
