import type { OnboardingView } from '../clients/records.ts';
import { t } from '../../i18n.ts';
import { formatDate } from '../../dates.ts';
import { Link } from '../../ui/index.ts';
import { dueText } from './onboarding-fields.tsx';

/**
 * One page of onboardings as a table on desktop, compact rows on a phone (lists.css): a
 * checkbox per row to select it for a bulk action, the client linking to the onboarding, and
 * its status with "Waiting for review" or "Changes requested" beside it.
 */
export function OnboardingsTable({
  rows,
  selected,
  onSelected,
  navigate,
}: {
  rows: readonly OnboardingView[];
  selected: ReadonlySet<string>;
  onSelected: (ids: Set<string>) => void;
  navigate: (path: string) => void;
}) {
  const all = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelected(next);
  };
  return (
    <table class="list-table">
      <caption class="visually-hidden">{t('onboardings.title')}</caption>
      <thead>
        <tr>
          <th scope="col" class="list-select">
            <input
              type="checkbox"
              checked={all}
              aria-label={t('onboardings.list.selectPage')}
              onChange={() => onSelected(all ? new Set() : new Set(rows.map((row) => row.id)))}
            />
          </th>
          <th scope="col">{t('onboardings.list.client')}</th>
          <th scope="col">{t('onboardings.template')}</th>
          <th scope="col">{t('onboardings.status')}</th>
          <th scope="col">{t('onboardings.due')}</th>
          <th scope="col">{t('onboardings.assignee')}</th>
          <th scope="col">{t('onboardings.list.created')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const name = row.client.name ?? row.client.email ?? '';
          return (
            <tr key={row.id} class={selected.has(row.id) ? 'list-selected' : undefined}>
              <td class="list-select">
                <input
                  type="checkbox"
                  checked={selected.has(row.id)}
                  aria-label={t('onboardings.list.selectRow', { name, template: row.template.name })}
                  onChange={() => toggle(row.id)}
                />
              </td>
              <th scope="row" class="list-client">
                <Link href={`/workspace/onboardings/${row.id}`} navigate={navigate}>
                  {name}
                </Link>
              </th>
              <td data-label={t('onboardings.template')}>{row.template.name}</td>
              <td data-label={t('onboardings.status')}>
                {t(`onboardings.statusLabel.${row.status}`)}
                {row.review_state ? (
                  <span class={`review-state review-state-${row.review_state}`}>
                    {' '}
                    {row.review_state === 'awaiting_review'
                      ? t('onboardings.list.awaitingCount', { count: row.answers_awaiting_review })
                      : t(`onboardings.reviewState.${row.review_state}`)}
                  </span>
                ) : null}
                {row.archived_at ? <span class="list-muted"> · {t('onboardings.list.archived')}</span> : null}
              </td>
              <td data-label={t('onboardings.due')}>{dueText(row)}</td>
              <td data-label={t('onboardings.assignee')}>{row.assignee_name ?? t('onboardings.nobody')}</td>
              <td data-label={t('onboardings.list.created')}>{formatDate(row.created_at)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
