import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import type { Notification } from '../../../../../notifications/contract/notifications.ts';
import { t } from '../../i18n.ts';
import { ErrorMessage, useAction } from '../../ui/index.ts';
import { getNotifications, markRead } from './api.ts';
import { NotificationList } from './notification-list.tsx';
import './notifications.css';

/** How often the bell asks for news while the page is open. */
const POLL_MS = 60_000;

/** Navigates inside the app; without the shell's, through the history (the app follows popstate). */
const historyNavigate = (path: string) => {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
};

/**
 * The bell in the header: a button whose name says how many notifications are unread, that
 * opens the newest notifications, each a link to its onboarding (following one marks it
 * read), and "Mark all read". Escape or a click outside closes the list, and focus goes back
 * to the button.
 */
export function NotificationBell({ navigate = historyNavigate }: { navigate?: (path: string) => void }) {
  const [open, setOpen] = useState(false);
  const [unread, setUnread] = useState(0);
  const [items, setItems] = useState<Notification[] | null>(null);
  const { busy, error, run, fail } = useAction();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const headingId = useId();

  const refresh = useCallback(async () => {
    const answer = await getNotifications();
    if (!answer.ok) return;
    setUnread(answer.data.unread_count);
    setItems(answer.data.data);
  }, []);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close(true);
      }
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close]);

  const toggle = () => {
    if (open) return close(true);
    setOpen(true);
    void refresh();
  };

  const follow = (item: Notification) => {
    if (!item.read) void markRead({ ids: [item.id] }).then(() => refresh());
    setOpen(false);
    navigate(`/workspace/onboardings/${item.onboarding_id}`);
  };

  const markAll = () =>
    run(async () => {
      const answer = await markRead({ all: true });
      if (!answer.ok) return fail(answer.problem);
      await refresh();
    });

  return (
    <div class="notification-bell">
      <button
        ref={button}
        type="button"
        class="button-quiet bell-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={toggle}
      >
        <BellIcon />
        <span class="visually-hidden">{t('notifications.bell', { count: unread })}</span>
        {unread > 0 && (
          <span class="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      <div
        ref={panel}
        id={panelId}
        class="bell-panel card"
        role="region"
        aria-labelledby={headingId}
        hidden={!open}
      >
        <div class="bell-panel-head">
          <h2 id={headingId}>{t('notifications.title')}</h2>
          <button
            type="button"
            class="button-secondary"
            aria-disabled={busy || unread === 0 || undefined}
            onClick={() => unread > 0 && void markAll()}
          >
            {t('notifications.markAllRead')}
          </button>
        </div>
        <ErrorMessage text={error} />
        <NotificationList items={items} onFollow={follow} />
      </div>
    </div>
  );
}

function BellIcon() {
  return (
    <svg class="bell-icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
      />
    </svg>
  );
}
