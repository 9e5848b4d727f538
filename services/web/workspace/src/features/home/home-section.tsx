import { t } from '../../i18n.ts';
import { formatDate } from '../../dates.ts';
import { Link } from '../../ui/index.ts';
import type { HomeItem } from './api.ts';

export type SectionName =
  'awaiting_review' | 'changes_requested' | 'overdue' | 'due_this_week' | 'recently_completed' | 'drafts';

/** One item's line: what it is about (client, template) and why it is here. */
function detail(section: SectionName, item: HomeItem): string {
  if (section === 'awaiting_review') return t('home.item.answers', { count: item.answers_awaiting_review });
  if (section === 'overdue' || section === 'due_this_week') {
    return t('home.item.due', { date: formatDate(item.due_at) });
  }
  if (section === 'recently_completed')
    return t('home.item.completed', { date: formatDate(item.updated_at) });
  return item.template.name;
}

/**
 * One headed section of Home: its count, its first items (each a link to its onboarding),
 * a link to the rest when there are more.
 */
export function HomeSection({
  name,
  section,
  navigate,
}: {
  name: SectionName;
  section: { total: number; items: HomeItem[] };
  navigate: (path: string) => void;
}) {
  const id = `home-${name}`;
  return (
    <section class="home-section" aria-labelledby={id}>
      <h2 id={id}>
        {t(`home.section.${name}`)} <span class="count">{section.total}</span>
      </h2>
      {section.items.length === 0 ? (
        <p class="muted">{t('home.section.none')}</p>
      ) : (
        <ul class="home-items">
          {section.items.map((item) => (
            <li key={item.id}>
              <Link href={`/workspace/onboardings/${encodeURIComponent(item.id)}`} navigate={navigate}>
                {item.client.name ?? item.client.email ?? t('home.item.noName')}
              </Link>
              <span class="muted">
                {' · '}
                {item.template.name}
                {' · '}
                {detail(name, item)}
              </span>
              {item.assigned_to_me ? <span class="badge">{t('home.item.yours')}</span> : null}
            </li>
          ))}
        </ul>
      )}
      {section.total > section.items.length ? (
        <p class="more">
          <Link href="/workspace/onboardings" navigate={navigate}>
            {t('home.section.more', { count: section.total - section.items.length })}
          </Link>
        </p>
      ) : null}
    </section>
  );
}
