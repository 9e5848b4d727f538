import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { valueText, type ReviewedAnswer } from './review-types.ts';

/** Every version of one answer with who and when, its reviews, and the diff since the last review. */
export function AnswerVersions({ answer }: { answer: ReviewedAnswer }) {
  const empty = t('review.empty');
  return (
    <>
      {answer.diff ? <AnswerDiff diff={answer.diff} empty={empty} /> : null}
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
                <p class="review-value">{valueText(version.value, empty)}</p>
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

function AnswerDiff({ diff, empty }: { diff: NonNullable<ReviewedAnswer['diff']>; empty: string }) {
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
            <del>{valueText(diff.before, empty)}</del>
          </dd>
          <dt>{t('review.after')}</dt>
          <dd>
            <ins>{valueText(diff.after, empty)}</ins>
          </dd>
        </dl>
      )}
    </div>
  );
}
