import type { Translate } from '../i18n.ts';
import { pageTitle, ScreenHeading } from './heading.tsx';

export type DeadEndKind = 'inactive' | 'expired' | 'cancelled' | 'completed' | 'pin_locked' | 'error';

const TEXTS: Record<DeadEndKind, { title: string; body: string }> = {
  inactive: { title: 'dead.inactive.title', body: 'dead.inactive.body' },
  expired: { title: 'dead.expired.title', body: 'dead.expired.body' },
  cancelled: { title: 'dead.cancelled.title', body: 'dead.cancelled.body' },
  completed: { title: 'dead.completed.title', body: 'dead.completed.body' },
  pin_locked: { title: 'dead.locked.title', body: 'dead.locked.body' },
  error: { title: 'dead.error.title', body: 'dead.error.body' },
};

/** A link that leads nowhere (or a failure): what happened, whose form it is and what to do. */
export function DeadEnd({
  kind,
  team,
  retryAfterSeconds,
  t,
  onRetry,
}: {
  kind: DeadEndKind;
  team: string | null;
  retryAfterSeconds?: number | null;
  t: Translate;
  onRetry?: () => void;
}) {
  const texts = TEXTS[kind];
  const minutes = Math.max(1, Math.ceil((retryAfterSeconds ?? 60) / 60));
  const body =
    kind === 'inactive' && !team
      ? t('dead.inactiveUnknown.body')
      : t(texts.body, { team: team ?? '', minutes });
  const title = t(texts.title);
  return (
    <section class="card dead-end" aria-labelledby="screen-title">
      <ScreenHeading documentTitle={pageTitle(t, title, team)} focusKey={kind}>
        <span id="screen-title">{title}</span>
      </ScreenHeading>
      <p>{body}</p>
      {team && kind !== 'error' ? <p class="muted">{t('dead.ownerTeam', { team })}</p> : null}
      {onRetry ? (
        <button type="button" class="button primary" onClick={onRetry}>
          {t('dead.tryAgain')}
        </button>
      ) : null}
    </section>
  );
}
