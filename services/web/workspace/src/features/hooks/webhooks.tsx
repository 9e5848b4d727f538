import { useCallback, useEffect, useState } from 'preact/hooks';
import { call } from '../../api.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { useReauth } from '../access/reauth.tsx';
import { ErrorMessage, ScreenHeading, Status } from '../../ui/index.ts';
import type { DeliveryTarget, HookSubscription, SigningSecret, WebhookEndpoint } from './webhooks.ts';
import { DeliveriesDialog } from './deliveries.tsx';
import { AddEndpointDialog, AddSubscriptionDialog, ConfirmDialog, SecretShown } from './webhook-dialogs.tsx';

type Open =
  | { kind: 'add-subscription' }
  | { kind: 'delete-subscription'; subscription: HookSubscription }
  | { kind: 'rotate-team-secret' }
  | { kind: 'add-endpoint' }
  | { kind: 'delete-endpoint'; endpoint: WebhookEndpoint }
  | { kind: 'rotate-endpoint'; endpoint: WebhookEndpoint }
  | { kind: 'deliveries'; target: DeliveryTarget }
  | null;

/** Webhooks (owners and admins): hook subscriptions, the hook signing secret, signed endpoints. */
export function WebhooksScreen() {
  const [subscriptions, setSubscriptions] = useState<HookSubscription[] | null>(null);
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null);
  const [teamSecret, setTeamSecret] = useState<SigningSecret | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const { withReauth, dialog: reauthDialog } = useReauth();

  const load = useCallback(async () => {
    const [hooks, signed] = await Promise.all([
      call<{ data: HookSubscription[] }>('GET', '/hook-subscriptions'),
      call<{ data: WebhookEndpoint[] }>('GET', '/webhook-endpoints'),
    ]);
    if (hooks.ok) setSubscriptions(hooks.data.data);
    if (signed.ok) setEndpoints(signed.data.data);
    const failed = !hooks.ok ? hooks : !signed.ok ? signed : null;
    setError(failed && !failed.ok ? problemMessage(failed.problem, t) : null);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const showSecret = async () => {
    setError(null);
    const answer = await withReauth(() => call<SigningSecret>('GET', '/hook-signing-secret'));
    if (answer === null) setStatus(t('key.notChanged'));
    else if (answer.ok) {
      setTeamSecret(answer.data);
      setStatus(t('webhooks.secretShown'));
    } else setError(problemMessage(answer.problem, t));
  };
  const closeWith = (message: string | null, focusId?: string) => {
    setOpen(null);
    if (message) setStatus(message);
    // A deleted row's button is gone: focus goes to its section's heading, not the page's body.
    void load().then(() => (focusId ? document.getElementById(focusId)?.focus() : undefined));
  };
  const deliveriesOf = (target: DeliveryTarget) => () => setOpen({ kind: 'deliveries', target });

  return (
    <>
      <ScreenHeading>{t('webhooks.title')}</ScreenHeading>
      <p>{t('webhooks.intro')}</p>
      <Status text={status} />
      <ErrorMessage text={error} />

      <section class="section" aria-labelledby="hooks-heading">
        <h2 id="hooks-heading" class="section-title" tabIndex={-1}>
          {t('webhooks.subscriptions')}
        </h2>
        <p>{t('webhooks.subscriptionsIntro')}</p>
        <button type="button" class="button-primary" onClick={() => setOpen({ kind: 'add-subscription' })}>
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
                      onClick={deliveriesOf(target)}
                    >
                      {t('webhooks.deliveries')}
                    </button>
                    <button
                      type="button"
                      class="button-danger"
                      aria-describedby={`hook-${subscription.id}`}
                      onClick={() => setOpen({ kind: 'delete-subscription', subscription })}
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
            <button type="button" class="button-secondary" onClick={() => setTeamSecret(null)}>
              {t('webhooks.hideSecret')}
            </button>
          ) : (
            <button type="button" class="button-secondary" onClick={() => void showSecret()}>
              {t('webhooks.showSecret')}
            </button>
          )}
          <button
            type="button"
            class="button-secondary"
            onClick={() => setOpen({ kind: 'rotate-team-secret' })}
          >
            {t('webhooks.rotateSecret')}
          </button>
        </div>
      </section>

      <section class="section" aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading" class="section-title" tabIndex={-1}>
          {t('webhooks.endpoints')}
        </h2>
        <p>{t('webhooks.endpointsIntro')}</p>
        <button type="button" class="button-primary" onClick={() => setOpen({ kind: 'add-endpoint' })}>
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
                      onClick={deliveriesOf(target)}
                    >
                      {t('webhooks.deliveries')}
                    </button>
                    <button
                      type="button"
                      class="button-secondary"
                      aria-describedby={`endpoint-${endpoint.id}`}
                      onClick={() => setOpen({ kind: 'rotate-endpoint', endpoint })}
                    >
                      {t('webhooks.rotateSecret')}
                    </button>
                    <button
                      type="button"
                      class="button-danger"
                      aria-describedby={`endpoint-${endpoint.id}`}
                      onClick={() => setOpen({ kind: 'delete-endpoint', endpoint })}
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

      {open?.kind === 'add-subscription' ? (
        <AddSubscriptionDialog
          onAdded={(subscription) =>
            closeWith(
              t('webhooks.subscriptionAdded', { event: subscription.event, url: subscription.target_url }),
            )
          }
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'delete-subscription' ? (
        <ConfirmDialog
          title={t('webhooks.deleteSubscriptionTitle', { event: open.subscription.event })}
          intro={t('webhooks.deleteSubscriptionIntro', { url: open.subscription.target_url })}
          action={t('webhooks.delete')}
          danger
          act={() => call('DELETE', `/hook-subscriptions/${open.subscription.id}`)}
          onDone={() => closeWith(t('webhooks.deleted'), 'hooks-heading')}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'rotate-team-secret' ? (
        <ConfirmDialog
          title={t('webhooks.rotateTeamSecretTitle')}
          intro={t('webhooks.rotateIntro')}
          action={t('webhooks.rotateSecret')}
          act={() => withReauth(() => call<SigningSecret>('POST', '/hook-signing-secret/rotate'))}
          onDone={(secret) => {
            if (teamSecret && secret) setTeamSecret(secret);
          }}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'add-endpoint' ? (
        <AddEndpointDialog
          withReauth={withReauth}
          onAdded={() => void load()}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'rotate-endpoint' ? (
        <ConfirmDialog
          title={t('webhooks.rotateEndpointTitle', { url: open.endpoint.url })}
          intro={t('webhooks.rotateIntro')}
          action={t('webhooks.rotateSecret')}
          act={() => withReauth(() => call('POST', `/webhook-endpoints/${open.endpoint.id}/rotate-secret`))}
          onDone={() => undefined}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'delete-endpoint' ? (
        <ConfirmDialog
          title={t('webhooks.deleteEndpointTitle', { url: open.endpoint.url })}
          intro={t('webhooks.deleteEndpointIntro')}
          action={t('webhooks.delete')}
          danger
          act={() => call('DELETE', `/webhook-endpoints/${open.endpoint.id}`)}
          onDone={() => closeWith(t('webhooks.deleted'), 'endpoints-heading')}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'deliveries' ? (
        <DeliveriesDialog target={open.target} onClose={() => setOpen(null)} />
      ) : null}
      {reauthDialog}
    </>
  );
}
