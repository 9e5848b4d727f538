import type { ComponentChildren } from 'preact';
import { t } from './i18n.ts';

/** The pages before sign-in: the product's name and one column. */
export function PublicLayout({ children }: { children: ComponentChildren }) {
  return (
    <>
      <a class="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <header class="site-header">
        <div class="header-inner">
          <p class="team-name">{t('app.name')}</p>
        </div>
      </header>
      <main id="main" class="main">
        <div class="card">{children}</div>
      </main>
    </>
  );
}
