import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Outcome } from '../../api.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { Dialog, ErrorMessage, Field, Status, useAction } from '../../ui/index.ts';
import { listDeliveries, replayDelivery, replayFailedDeliveries, sendTestDelivery } from './api.ts';
import { attemptOutcome, dayBefore, sinceIso, type Delivery, type DeliveryTarget } from './webhooks.ts';

/**
 * The delivery log of a hook subscription or signed webhook endpoint: each delivery with its
 * attempts, Send test event, Replay per delivery, Replay failed since a date and time.
 */
export function DeliveriesDialog({ target, onClose }: { target: DeliveryTarget; onClose: () => void }) {
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const { busy, error, setError, run, fail } = useAction();
  const [since, setSince] = useState(dayBefore());
  const [sinceError, setSinceError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const answer = await listDeliveries(target);
    if (answer.ok) setDeliveries(answer.data.deliveries);
    else setError(problemMessage(answer.problem, t));
    return answer.ok;
  }, [target]);
  useEffect(() => {
    void load();
  }, [load]);

  const post = async <T,>(request: () => Promise<Outcome<T>>, done: (data: T) => string) => {
    const answer = await run(() => {
      setStatus(t('webhooks.sending'));
      return request();
    });
    if (answer === undefined) return;
    if (answer.ok) {
      setStatus(done(answer.data));
      await load();
    } else {
      setStatus(null);
      fail(answer.problem);
    }
  };
  const replayedCount = (data: { replayed: string[] }) =>
    t('webhooks.replayed', { count: data.replayed.length });

  const replayFailed = (event: Event) => {
    event.preventDefault();
    const iso = sinceIso(since);
    if (!iso) {
      setSinceError(t('webhooks.sinceInvalid'));
      document.getElementById('replay-since')?.focus();
      return;
    }
    setSinceError(null);
    void post(() => replayFailedDeliveries(target, iso), replayedCount);
  };

  return (
    <Dialog title={t('webhooks.deliveriesTitle', { target: target.label })} onClose={onClose}>
      <Status text={status} />
      <ErrorMessage text={error} />
      <div class="actions">
        <button
          type="button"
          class="button-primary"
          aria-disabled={busy || undefined}
          onClick={() =>
            void post(
              () => sendTestDelivery(target),
              () => t('webhooks.testQueued'),
            )
          }
        >
          {t('webhooks.sendTest')}
        </button>
        <button
          type="button"
          class="button-secondary"
          onClick={() => void load().then((ok) => ok && setStatus(t('webhooks.refreshed')))}
        >
          {t('webhooks.refresh')}
        </button>
      </div>
      <form onSubmit={replayFailed} noValidate>
        <Field
          id="replay-since"
          label={t('webhooks.since')}
          hint={t('webhooks.sinceHint')}
          type="datetime-local"
          value={since}
          onValue={setSince}
          error={sinceError}
        />
        <button type="submit" class="button-secondary" aria-disabled={busy || undefined}>
          {t('webhooks.replayFailed')}
        </button>
      </form>
      <h3 class="section-title">{t('webhooks.deliveries')}</h3>
      {deliveries === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : deliveries.length === 0 ? (
        <p>{t('webhooks.noDeliveries')}</p>
      ) : (
        <ul class="rows">
          {deliveries.map((delivery) => (
            <DeliveryRow
              key={delivery.id}
              delivery={delivery}
              busy={busy}
              onReplay={() => void post(() => replayDelivery(target, delivery.id), replayedCount)}
            />
          ))}
        </ul>
      )}
    </Dialog>
  );
}

/** One delivery: its event and state, its attempts as a table, and Replay. */
function DeliveryRow({
  delivery,
  busy,
  onReplay,
}: {
  delivery: Delivery;
  busy: boolean;
  onReplay: () => void;
}) {
  return (
    <li class="row">
      <h4 class="row-title">
        {delivery.event_type} · {t(`webhooks.state.${delivery.state}`)}
      </h4>
      <dl class="facts">
        <dt>{t('webhooks.created')}</dt>
        <dd>{formatDateTime(delivery.created_at)}</dd>
        <dt>{t('webhooks.deliveryId')}</dt>
        <dd>
          <code>{delivery.id}</code>
        </dd>
        {delivery.next_attempt_at ? (
          <>
            <dt>{t('webhooks.nextRetry')}</dt>
            <dd>{formatDateTime(delivery.next_attempt_at)}</dd>
          </>
        ) : null}
      </dl>
      {delivery.attempts.length === 0 ? (
        <p>{t('webhooks.noAttempts')}</p>
      ) : (
        <table class="attempts">
          <caption class="visually-hidden">{t('webhooks.attemptsOf', { id: delivery.id })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('webhooks.attemptTime')}</th>
              <th scope="col">{t('webhooks.attemptOutcome')}</th>
              <th scope="col">{t('webhooks.attemptDuration')}</th>
              <th scope="col">{t('webhooks.nextRetry')}</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attempts.map((attempt) => (
              <tr key={`${attempt.round}-${attempt.attempt}`}>
                <td>{formatDateTime(attempt.attempted_at)}</td>
                <td>{attemptOutcome(attempt)}</td>
                <td>{t('webhooks.ms', { ms: attempt.duration_ms })}</td>
                <td>{attempt.next_attempt_at ? formatDateTime(attempt.next_attempt_at) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button
        type="button"
        class="button-secondary"
        aria-describedby={`delivery-${delivery.id}`}
        aria-disabled={busy || undefined}
        onClick={onReplay}
      >
        {t('webhooks.replay')}
      </button>
      <span id={`delivery-${delivery.id}`} class="visually-hidden">
        {delivery.event_type} {formatDateTime(delivery.created_at)}
      </span>
    </li>
  );
}
