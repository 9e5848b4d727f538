import { t } from '../../i18n.ts';
import type { Home } from './api.ts';

/** The month's onboardings against the plan's limit: a meter, or a count when unlimited. */
export function UsageMeter({ usage }: { usage: Home['usage'] }) {
  if (usage.limit === 'unlimited') {
    return <p class="usage">{t('home.usage.unlimited', { used: usage.used })}</p>;
  }
  const label = t('home.usage.label', { used: usage.used, limit: usage.limit });
  return (
    <div class="usage-meter">
      <p id="home-usage">{label}</p>
      <meter
        aria-labelledby="home-usage"
        min={0}
        max={usage.limit}
        value={usage.used}
        high={usage.limit * 0.8}
      />
    </div>
  );
}
