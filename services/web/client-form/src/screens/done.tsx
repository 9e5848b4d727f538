import type { Translate } from '../i18n.ts';
import { pageTitle, ScreenHeading } from './heading.tsx';

export function Done({ team, date, t }: { team: string; date: string; t: Translate }) {
  const title = t('done.title');
  return (
    <section class="card done" aria-labelledby="screen-title">
      <ScreenHeading documentTitle={pageTitle(t, title, team)} focusKey="done">
        <span id="screen-title">{title}</span>
      </ScreenHeading>
      <p>{t('done.body', { team })}</p>
      <p class="muted">{t('done.when', { date })}</p>
    </section>
  );
}
