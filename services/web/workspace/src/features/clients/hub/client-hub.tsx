import { useEffect, useState } from 'preact/hooks';
import { formatDate, formatDateTime } from '../../../dates.ts';
import { currentLocale, t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { ErrorMessage, Link } from '../../../ui/index.ts';
import { actorText, entryText } from '../../onboardings/onboarding-timeline.tsx';
import { formatAmount } from '../../onboardings/payments-model.ts';
import { getClientHub, type ClientHub as Hub } from './api.ts';
import './client-hub.css';

/**
 * The client as a hub: their onboardings with status and answers waiting for review, the
 * files they uploaded, their payments and the activity of their onboardings, newest first.
 * `version` reads it again (a new onboarding was created from this page).
 */
export function ClientHub({
  clientId,
  version,
  navigate,
}: {
  clientId: string;
  version: number;
  navigate: (path: string) => void;
}) {
  const [hub, setHub] = useState<Hub | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void getClientHub(clientId).then((answer) => {
      if (answer.ok) setHub(answer.data);
      else setError(problemMessage(answer.problem, t));
    });
  }, [clientId, version]);
  if (error) return <ErrorMessage text={error} />;
  if (!hub) return <p class="loading">{t('app.loading')}</p>;
  const names = new Map(hub.onboardings.map((one) => [one.id, one.template_name]));
  const fileHref = (onboardingId: string, fileId: string) =>
    `/workspace/v1/onboardings/${encodeURIComponent(onboardingId)}/files/${encodeURIComponent(fileId)}`;
  return (
    <div class="client-hub">
      <section class="section" aria-labelledby="hub-onboardings">
        <h2 id="hub-onboardings">{t('clients.hub.onboardings')}</h2>
        {hub.onboardings.length === 0 ? (
          <p>{t('clients.hub.noOnboardings')}</p>
        ) : (
          <ul class="plain hub-list">
            {hub.onboardings.map((one) => (
              <li key={one.id} class="hub-item">
                <Link href={`/workspace/onboardings/${one.id}`} navigate={navigate}>
                  {one.template_name}
                </Link>
                <span class={`hub-status hub-status-${one.status}`}>
                  {t(`onboardings.statusLabel.${one.status}`)}
                </span>
                {one.awaiting_review ? (
                  <span class="hub-badge hub-badge-waiting">
                    {t('clients.hub.waiting', { count: one.answers_awaiting })}
                  </span>
                ) : one.review_state ? (
                  <span class="hub-badge">{t(`onboardings.reviewState.${one.review_state}`)}</span>
                ) : null}
                <span class="hub-meta">
                  {t('clients.hub.progress', { pct: one.progress_pct })} ·{' '}
                  {t('clients.hub.created', { date: formatDate(one.created_at) })}
                  {one.archived ? ` · ${t('clients.hub.archived')}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="section" aria-labelledby="hub-files">
        <h2 id="hub-files">{t('clients.hub.files')}</h2>
        {hub.files.length === 0 ? (
          <p>{t('clients.hub.noFiles')}</p>
        ) : (
          <ul class="plain hub-list">
            {hub.files.map((file) => (
              <li key={file.file_id} class="hub-item">
                <a href={fileHref(file.onboarding_id, file.file_id)} download>
                  {t('review.download', { name: file.file_name ?? file.field_label })}
                </a>
                <span class="hub-meta">
                  {t('clients.hub.fileFrom', {
                    field: file.field_label,
                    template: names.get(file.onboarding_id) ?? '',
                    date: formatDate(file.uploaded_at),
                  })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <HubPayments payments={hub.payments} names={names} />
      <HubActivity activity={hub.activity} />
    </div>
  );
}

/** The payments of the client's onboardings (unpaid ones are left out). */
function HubPayments({ payments, names }: { payments: Hub['payments']; names: Map<string, string> }) {
  return (
    <section class="section" aria-labelledby="hub-payments">
      <h2 id="hub-payments">{t('clients.hub.payments')}</h2>
      {payments.length === 0 ? (
        <p>{t('clients.hub.noPayments')}</p>
      ) : (
        <ul class="plain hub-list">
          {payments.map((payment) => (
            <li key={`${payment.onboarding_id}-${payment.field_id}`} class="hub-item">
              <strong>
                {payment.amount_cents === null
                  ? payment.label
                  : `${payment.label}: ${formatAmount(payment.amount_cents, payment.currency, currentLocale())}`}
              </strong>
              <span class="hub-status">{t(`payments.status.${payment.status}`)}</span>
              <span class="hub-meta">
                {names.get(payment.onboarding_id) ?? ''}
                {payment.paid_at ? ` · ${formatDate(payment.paid_at)}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What happened on the client's onboardings, newest first, each naming its onboarding. */
function HubActivity({ activity }: { activity: Hub['activity'] }) {
  return (
    <section class="section" aria-labelledby="hub-activity">
      <h2 id="hub-activity">{t('clients.hub.activity')}</h2>
      {activity.length === 0 ? (
        <p>{t('clients.hub.noActivity')}</p>
      ) : (
        <ol class="timeline">
          {activity.map((entry, index) => (
            <li key={index} data-kind={entry.kind}>
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              {entryText(entry)}{' '}
              <span class="timeline-actor">
                {t('timeline.by', { actor: actorText(entry.actor) })} · {entry.template_name}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
