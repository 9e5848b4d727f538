import { t } from '../../i18n.ts';
import { Link } from '../../ui/index.ts';
import type { TemplateFigures } from './api.ts';

/** Pure: a duration in words of the largest unit (minutes, hours or days). */
export function durationText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 3600) return t('home.duration.minutes', { count: Math.max(1, Math.round(seconds / 60)) });
  if (seconds < 86_400) return t('home.duration.hours', { count: Math.round(seconds / 3600) });
  return t('home.duration.days', { count: Math.round(seconds / 86_400) });
}

/** The month's figures per template: sent, completed, median time to complete. */
export function TemplateFiguresTable({
  figures,
  navigate,
}: {
  figures: TemplateFigures[];
  navigate: (path: string) => void;
}) {
  return (
    <section class="home-section" aria-labelledby="home-templates">
      <h2 id="home-templates">{t('home.templates.title')}</h2>
      {figures.length === 0 ? (
        <p class="muted">{t('home.templates.empty')}</p>
      ) : (
        <div class="table-scroll">
          <table class="home-figures">
            <thead>
              <tr>
                <th scope="col">{t('home.templates.template')}</th>
                <th scope="col">{t('home.templates.sent')}</th>
                <th scope="col">{t('home.templates.completed')}</th>
                <th scope="col">{t('home.templates.median')}</th>
              </tr>
            </thead>
            <tbody>
              {figures.map((row) => (
                <tr key={row.template.id}>
                  <th scope="row">
                    <Link
                      href={`/workspace/templates/${encodeURIComponent(row.template.id)}`}
                      navigate={navigate}
                    >
                      {row.template.name}
                    </Link>
                  </th>
                  <td>{row.sent}</td>
                  <td>{row.completed}</td>
                  <td>{durationText(row.median_seconds_to_complete)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
