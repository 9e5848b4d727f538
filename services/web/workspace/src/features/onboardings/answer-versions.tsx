import { useEffect, useState } from 'preact/hooks';
import { humanDate } from '../../../../../../shared/i18n/human-date.ts';
import { isCalendarDate } from '../../../../../templates/contract/field-catalogue.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { getClient } from '../clients/api.ts';
import { getOnboarding } from './api.ts';
import { valueText, type ReviewedAnswer } from './review-types.ts';

/** How the onboarding's client reads dates: their language and time zone. */
export interface ClientReading {
  locale: string;
  timeZone: string | null;
}

const ONBOARDING_PAGE = /^\/workspace\/onboardings\/([0-9a-f-]{36})/i;
const readings = new Map<string, Promise<ClientReading | null>>();

/** The client's reading of an onboarding (asked once per onboarding); null when it cannot be read. */
function readingOf(onboardingId: string): Promise<ClientReading | null> {
  let reading = readings.get(onboardingId);
  if (!reading) {
    reading = (async () => {
      const onboarding = await getOnboarding(onboardingId);
      if (!onboarding.ok) return null;
      const client = await getClient(onboarding.data.onboarding.client.id);
      return client.ok ? { locale: client.data.client.locale, timeZone: client.data.client.timezone } : null;
    })();
    readings.set(onboardingId, reading);
  }
  return reading;
}

/**
 * The reading of the client of the onboarding page this answer is on (the page's path names
 * the onboarding); null until known, or off an onboarding page.
 */
export function useClientReading(): ClientReading | null {
  const [reading, setReading] = useState<ClientReading | null>(null);
  useEffect(() => {
    const id = ONBOARDING_PAGE.exec(location.pathname)?.[1];
    if (id) void readingOf(id).then(setReading);
  }, []);
  return reading;
}

/**
 * Pure: an answer's value as one line of text; a date as the client reads it ("23. Juni
 * 1990" for a de-DE client), in the team's en-US until the client's reading is known.
 */
export function answerText(
  type: string,
  value: unknown,
  empty: string,
  reading: ClientReading | null,
): string {
  if (type === 'date' && typeof value === 'string' && isCalendarDate(value)) {
    return humanDate(value, reading?.locale ?? 'en-US', reading?.timeZone);
  }
  return valueText(value, empty);
}

/** Every version of one answer with who and when, its reviews, and the diff since the last review. */
export function AnswerVersions({ answer }: { answer: ReviewedAnswer }) {
  const empty = t('review.empty');
  const reading = useClientReading();
  const text = (value: unknown) => answerText(answer.type, value, empty, reading);
  return (
    <>
      {answer.diff ? <AnswerDiff diff={answer.diff} text={text} /> : null}
      {answer.versions.length > 0 ? (
        <details class="review-versions">
          <summary>{t('review.versions', { count: answer.versions.length })}</summary>
          <ol>
            {answer.versions.map((version) => (
              <li key={version.number}>
                <p>
                  {t('review.version', {
                    number: version.number,
                    date: formatDateTime(version.submitted_at),
                  })}
                </p>
                <p class="review-value" lang={answer.type === 'date' ? reading?.locale : undefined}>
                  {text(version.value)}
                </p>
                {answer.reviews
                  .filter((review) => review.version === version.number)
                  .map((review) => (
                    <p key={review.reviewed_at} class="review-outcome">
                      {t(`review.reviewed.${review.decision}`, {
                        name: review.member_name,
                        date: formatDateTime(review.reviewed_at),
                        reason: review.reason ?? '',
                      })}
                    </p>
                  ))}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </>
  );
}

function AnswerDiff({
  diff,
  text,
}: {
  diff: NonNullable<ReviewedAnswer['diff']>;
  text: (value: unknown) => string;
}) {
  return (
    <div class="review-diff">
      <p class="review-diff-title">{t('review.diff', { from: diff.from, to: diff.to })}</p>
      {diff.kind === 'words' ? (
        <p class="review-value">
          {diff.parts.map((part, index) =>
            part.added ? (
              <ins key={index}>
                <span class="visually-hidden">[{t('review.added')}: </span>
                {part.value}
                <span class="visually-hidden">]</span>
              </ins>
            ) : part.removed ? (
              <del key={index}>
                <span class="visually-hidden">[{t('review.removed')}: </span>
                {part.value}
                <span class="visually-hidden">]</span>
              </del>
            ) : (
              <span key={index}>{part.value}</span>
            ),
          )}
        </p>
      ) : (
        <dl class="facts">
          <dt>{t('review.before')}</dt>
          <dd>
            <del>{text(diff.before)}</del>
          </dd>
          <dt>{t('review.after')}</dt>
          <dd>
            <ins>{text(diff.after)}</ins>
          </dd>
        </dl>
      )}
    </div>
  );
}
