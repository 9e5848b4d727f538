import type { Translate } from '../i18n.ts';

/** While the link is checked: a polite status, no heading focus (nothing to read yet). */
export function Loading({ t }: { t: Translate | null }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      {t ? t('app.loading') : ''}
    </p>
  );
}
