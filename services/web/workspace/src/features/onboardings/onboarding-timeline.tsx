import { useEffect, useState } from 'preact/hooks';
import type { ApiAnswer } from '../../api.ts';
import { formatDateTime } from '../../dates.ts';
import { currentLocale, t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { ErrorMessage } from '../../ui/index.ts';
import { getTimeline } from './api.ts';
import { formatAmount } from './payments-model.ts';
import './onboarding-review.css';

/** One step of the timeline (GET /workspace/v1/onboardings/{onboarding_id}/timeline). */
export type TimelineEntry = ApiAnswer<
  '/workspace/v1/onboardings/{onboarding_id}/timeline',
  'get'
>['entries'][number];

/** Pure: a payment entry's amount in words ("€150.00"), else empty. */
function amountOf(detail: TimelineEntry['detail']): string {
  const amount = detail['amount_cents'];
  const currency = detail['currency'];
  return typeof amount === 'number' && typeof currency === 'string'
    ? formatAmount(amount, currency, currentLocale())
    : '';
}

/** Pure: one timeline entry as a sentence (an unknown kind shows under its own name). */
export function entryText(entry: TimelineEntry): string {
  // A step submitted again with answers the team sent back says so.
  const key =
    entry.detail['resubmitted'] === true
      ? 'timeline.kind.response.resubmitted'
      : `timeline.kind.${entry.kind}`;
  const detail = {
    step: '',
    field: '',
    reason: '',
    note: '',
    ...entry.detail,
    amount: amountOf(entry.detail),
  };
  const text = t(key, detail);
  return text === key ? entry.kind.replace(/[._]/g, ' ') : text;
}

/** Pure: who acted, as the timeline says it. */
export function actorText(actor: TimelineEntry['actor']): string {
  return actor.type === 'member' ? (actor.name ?? '') : t(`timeline.actor.${actor.type}`);
}

/** The onboarding's timeline, oldest first: each step with its time and who acted. */
export function OnboardingTimeline({ onboardingId, version }: { onboardingId: string; version: number }) {
  const [entries, setEntries] = useState<TimelineEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void (async () => {
      const answer = await getTimeline(onboardingId);
      if (answer.ok) setEntries(answer.data.entries);
      else setError(problemMessage(answer.problem, t));
    })();
  }, [onboardingId, version]);
  return (
    <section class="section" aria-labelledby="timeline-title">
      <h2 id="timeline-title" class="section-title">
        {t('timeline.title')}
      </h2>
      <ErrorMessage text={error} />
      {entries === null ? (
        error ? null : (
          <p class="loading">{t('app.loading')}</p>
        )
      ) : entries.length === 0 ? (
        <p>{t('timeline.none')}</p>
      ) : (
        <ol class="timeline">
          {entries.map((entry, index) => (
            <li key={index} data-kind={entry.kind}>
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              {entryText(entry)}{' '}
              <span class="timeline-actor">{t('timeline.by', { actor: actorText(entry.actor) })}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
