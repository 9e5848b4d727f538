import { t } from '../i18n.ts';

/** While something loads: the session, a screen's code, a screen's data. */
export function Loading() {
  return (
    <p class="loading" role="status">
      {t('app.loading')}
    </p>
  );
}
