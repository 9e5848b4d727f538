import type { ComponentChildren } from 'preact';
import { t } from '../i18n.ts';
import { Link } from './link.tsx';
import { Pager } from './pager.tsx';

/** The primary action of a list screen (add a client, a new onboarding), above the list. */
export function ListAction({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <div class="actions">
      <button type="button" class="button-primary" onClick={onClick}>
        {label}
      </button>
    </div>
  );
}

/**
 * One page of a screen's list read `size` at a time: "Loading" until it is read, `none` when
 * it is empty, else how many there are, each item as a row titled by a link to its page with
 * its facts under the title, and the pager.
 */
export function PagedRows<T extends { id: string }>({
  page,
  offset,
  size,
  onOffset,
  none,
  count,
  countIsStatus,
  listClass = 'rows',
  href,
  title,
  facts,
  navigate,
}: {
  page: { data: readonly T[]; total: number } | null;
  offset: number;
  size: number;
  onOffset: (offset: number) => void;
  none: string;
  count: string;
  /** The count is a polite live region (it changes as filters apply). */
  countIsStatus?: boolean;
  listClass?: string;
  href: (item: T) => string;
  title: (item: T) => ComponentChildren;
  facts: (item: T) => ComponentChildren;
  navigate: (path: string) => void;
}) {
  if (page === null) return <p class="loading">{t('app.loading')}</p>;
  if (page.data.length === 0) return <p>{none}</p>;
  return (
    <>
      <p role={countIsStatus ? 'status' : undefined}>{count}</p>
      <ul class={listClass}>
        {page.data.map((item) => (
          <li key={item.id} class="row">
            <h2 class="row-title">
              <Link href={href(item)} navigate={navigate}>
                {title(item)}
              </Link>
            </h2>
            {facts(item)}
          </li>
        ))}
      </ul>
      <Pager offset={offset} size={size} total={page.total} onOffset={onOffset} />
    </>
  );
}
