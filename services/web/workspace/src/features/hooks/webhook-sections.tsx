import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import type { DeliveryTarget, HookSubscription, SigningSecret, WebhookEndpoint } from './webhooks.ts';
import { SecretShown } from './webhook-dialogs.tsx';

/** The hook subscriptions: each with its event, target, deliveries and delete. */
export function SubscriptionsSection({
  subscriptions,
  onAdd,
  onDelete,
  onDeliveries,
}: {
  subscriptions: HookSubscription[] | null;
  onAdd: () => void;
  onDelete: (subscription: HookSubscription) => void;
  onDeliveries: (target: DeliveryTarget) => void;
}) {
  return (
    <section class="section" aria-labelledby="hooks-heading">
      <h2 id="hooks-heading" class="section-title" tabIndex={-1}>
        {t('webhooks.subscriptions')}
      </h2>
      <p>{t('webhooks.subscriptionsIntro')}</p>
      <button type="button" class="button-primary" onClick={onAdd}>
        {t('webhooks.addSubscription')}
      </button>
      {subscriptions === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : subscriptions.length === 0 ? (
        <p>{t('webhooks.noSubscriptions')}</p>
      ) : (
        <ul class="rows">
          {subscriptions.map((subscription) => {
            const target = {
              kind: 'hook-subscriptions' as const,
              id: subscription.id,
              label: subscription.target_url,
            };
            return (
              <li key={subscription.id} class="row">
                <h3 class="row-title">{subscription.event}</h3>
                <dl class="facts">
                  <dt>{t('webhooks.targetUrl')}</dt>
                  <dd>{subscription.target_url}</dd>
                  <dt>{t('webhooks.created')}</dt>
                  <dd>{formatDateTime(subscription.created_at)}</dd>
                </dl>
                <div class="actions">
                  <button
                    type="button"
                    class="button-secondary"
                    aria-describedby={`hook-${subscription.id}`}
                    onClick={() => onDeliveries(target)}
                  >
                    {t('webhooks.deliveries')}
                  </button>
                  <button
                    type="button"
                    class="button-danger"
                    aria-describedby={`hook-${subscription.id}`}
                    onClick={() => onDelete(subscription)}
                  >
                    {t('webhooks.delete')}
                  </button>
                  <span id={`hook-${subscription.id}`} class="visually-hidden">
                    {subscription.event} {subscription.target_url}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The team's hook signing secret: shown on request (after re-authentication), hidden, rotated. */
export function SigningSecretSection({
  teamSecret,
  onShow,
  onHide,
  onRotate,
}: {
  teamSecret: SigningSecret | null;
  onShow: () => void;
  onHide: () => void;
  onRotate: () => void;
}) {
  return (
    <section class="section" aria-labelledby="secret-heading">
      <h2 id="secret-heading" class="section-title">
        {t('webhooks.signingSecret')}
      </h2>
      <p>{t('webhooks.signingSecretIntro')}</p>
      {teamSecret ? (
        <SecretShown
          key={teamSecret.secret}
          secret={teamSecret.secret}
          note={
            teamSecret.previous_valid_until
              ? t('webhooks.previousUntil', { when: formatDateTime(teamSecret.previous_valid_until) })
              : null
          }
        />
      ) : null}
      <div class="actions">
        {teamSecret ? (
          <button type="button" class="button-secondary" onClick={onHide}>
            {t('webhooks.hideSecret')}
          </button>
        ) : (
          <button type="button" class="button-secondary" onClick={onShow}>
            {t('webhooks.showSecret')}
          </button>
        )}
        <button type="button" class="button-secondary" onClick={onRotate}>
          {t('webhooks.rotateSecret')}
        </button>
      </div>
    </section>
  );
}

/** The signed webhook endpoints: each with its event types, deliveries, secret rotation and delete. */
export function EndpointsSection({
  endpoints,
  onAdd,
  onRotate,
  onDelete,
  onDeliveries,
}: {
  endpoints: WebhookEndpoint[] | null;
  onAdd: () => void;
  onRotate: (endpoint: WebhookEndpoint) => void;
  onDelete: (endpoint: WebhookEndpoint) => void;
  onDeliveries: (target: DeliveryTarget) => void;
}) {
  return (
    <section class="section" aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading" class="section-title" tabIndex={-1}>
        {t('webhooks.endpoints')}
      </h2>
      <p>{t('webhooks.endpointsIntro')}</p>
      <button type="button" class="button-primary" onClick={onAdd}>
        {t('webhooks.addEndpoint')}
      </button>
      {endpoints === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : endpoints.length === 0 ? (
        <p>{t('webhooks.noEndpoints')}</p>
      ) : (
        <ul class="rows">
          {endpoints.map((endpoint) => {
            const target = { kind: 'webhook-endpoints' as const, id: endpoint.id, label: endpoint.url };
            return (
              <li key={endpoint.id} class="row">
                <h3 class="row-title">{endpoint.url}</h3>
                <dl class="facts">
                  <dt>{t('webhooks.eventTypes')}</dt>
                  <dd>{endpoint.event_types.join(', ')}</dd>
                  <dt>{t('webhooks.created')}</dt>
                  <dd>{formatDateTime(endpoint.created_at)}</dd>
                </dl>
                <div class="actions">
                  <button
                    type="button"
                    class="button-secondary"
                    aria-describedby={`endpoint-${endpoint.id}`}
                    onClick={() => onDeliveries(target)}
                  >
                    {t('webhooks.deliveries')}
                  </button>
                  <button
                    type="button"
                    class="button-secondary"
                    aria-describedby={`endpoint-${endpoint.id}`}
                    onClick={() => onRotate(endpoint)}
                  >
                    {t('webhooks.rotateSecret')}
                  </button>
                  <button
                    type="button"
                    class="button-danger"
                    aria-describedby={`endpoint-${endpoint.id}`}
                    onClick={() => onDelete(endpoint)}
                  >
                    {t('webhooks.delete')}
                  </button>
                  <span id={`endpoint-${endpoint.id}`} class="visually-hidden">
                    {endpoint.url}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
