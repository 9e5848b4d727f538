import type { Notification } from '../../../../../notifications/contract/notifications.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';

/**
 * The bell's list: each notification a link to its onboarding (what happened, the client and
 * the template), unread ones marked for the eye and in words, newest first.
 */
export function NotificationList({
  items,
  onFollow,
}: {
  items: Notification[] | null;
  onFollow: (item: Notification) => void;
}) {
  if (items === null) return <p class="loading">{t('notifications.loading')}</p>;
  if (items.length === 0) return <p class="muted">{t('notifications.empty')}</p>;
  return (
    <ul class="bell-list">
      {items.map((item) => (
        <li key={item.id} class={item.read ? 'is-read' : 'is-unread'}>
          <a
            href={`/workspace/onboardings/${item.onboarding_id}`}
            onClick={(event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                return;
              event.preventDefault();
              onFollow(item);
            }}
          >
            <span class="bell-kind">
              {!item.read && <span class="visually-hidden">{t('notifications.unread')} </span>}
              {t(`notifications.kind.${item.kind}`)}
            </span>
            <span class="bell-what">
              {item.client_name
                ? t('notifications.about', { client: item.client_name, template: item.template_name })
                : item.template_name}
            </span>
          </a>
          <span class="bell-when muted">{formatDateTime(item.occurred_at)}</span>
        </li>
      ))}
    </ul>
  );
}
