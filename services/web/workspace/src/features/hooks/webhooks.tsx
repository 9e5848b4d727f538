import { useCallback, useEffect, useState } from 'preact/hooks';
import {
  deleteEndpoint,
  deleteSubscription,
  getSigningSecret,
  listEndpoints,
  listSubscriptions,
  rotateEndpointSecret,
  rotateSigningSecret,
} from './api.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { useReauth } from '../access/reauth.tsx';
import { ErrorMessage, ScreenHeading, Status } from '../../ui/index.ts';
import type { DeliveryTarget, HookSubscription, SigningSecret, WebhookEndpoint } from './webhooks.ts';
import { DeliveriesDialog } from './deliveries.tsx';
import { AddEndpointDialog, AddSubscriptionDialog, SecretConfirmDialog } from './webhook-dialogs.tsx';
import { EndpointsSection, SigningSecretSection, SubscriptionsSection } from './webhook-sections.tsx';
import type { WithReauth } from '../access/reauth.tsx';

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
    const [hooks, signed] = await Promise.all([listSubscriptions(), listEndpoints()]);
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
    const answer = await withReauth(getSigningSecret);
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
  const deliveriesOf = (target: DeliveryTarget) => setOpen({ kind: 'deliveries', target });

  return (
    <>
      <ScreenHeading>{t('webhooks.title')}</ScreenHeading>
      <p>{t('webhooks.intro')}</p>
      <Status text={status} />
      <ErrorMessage text={error} />

      <SubscriptionsSection
        subscriptions={subscriptions}
        onAdd={() => setOpen({ kind: 'add-subscription' })}
        onDelete={(subscription) => setOpen({ kind: 'delete-subscription', subscription })}
        onDeliveries={deliveriesOf}
      />
      <SigningSecretSection
        teamSecret={teamSecret}
        onShow={() => void showSecret()}
        onHide={() => setTeamSecret(null)}
        onRotate={() => setOpen({ kind: 'rotate-team-secret' })}
      />
      <EndpointsSection
        endpoints={endpoints}
        onAdd={() => setOpen({ kind: 'add-endpoint' })}
        onRotate={(endpoint) => setOpen({ kind: 'rotate-endpoint', endpoint })}
        onDelete={(endpoint) => setOpen({ kind: 'delete-endpoint', endpoint })}
        onDeliveries={deliveriesOf}
      />
      <WebhookDialogs
        open={open}
        withReauth={withReauth}
        onClose={() => setOpen(null)}
        closeWith={closeWith}
        onReload={() => void load()}
        onTeamSecret={(secret) => {
          if (teamSecret && secret) setTeamSecret(secret);
        }}
      />
      {reauthDialog}
    </>
  );
}

/** The dialog open on the Webhooks page, if any. */
function WebhookDialogs({
  open,
  withReauth,
  onClose,
  closeWith,
  onReload,
  onTeamSecret,
}: {
  open: Open;
  withReauth: WithReauth;
  onClose: () => void;
  closeWith: (message: string | null, focusId?: string) => void;
  onReload: () => void;
  onTeamSecret: (secret: SigningSecret | null) => void;
}) {
  return (
    <>
      {open?.kind === 'add-subscription' ? (
        <AddSubscriptionDialog
          onAdded={(subscription) =>
            closeWith(
              t('webhooks.subscriptionAdded', { event: subscription.event, url: subscription.target_url }),
            )
          }
          onClose={onClose}
        />
      ) : null}
      {open?.kind === 'delete-subscription' ? (
        <SecretConfirmDialog
          title={t('webhooks.deleteSubscriptionTitle', { event: open.subscription.event })}
          intro={t('webhooks.deleteSubscriptionIntro', { url: open.subscription.target_url })}
          action={t('webhooks.delete')}
          danger
          act={() => deleteSubscription(open.subscription.id)}
          onDone={() => closeWith(t('webhooks.deleted'), 'hooks-heading')}
          onClose={onClose}
        />
      ) : null}
      {open?.kind === 'rotate-team-secret' ? (
        <SecretConfirmDialog
          title={t('webhooks.rotateTeamSecretTitle')}
          intro={t('webhooks.rotateIntro')}
          action={t('webhooks.rotateSecret')}
          act={() => withReauth(rotateSigningSecret)}
          onDone={onTeamSecret}
          onClose={onClose}
        />
      ) : null}
      {open?.kind === 'add-endpoint' ? (
        <AddEndpointDialog withReauth={withReauth} onAdded={onReload} onClose={onClose} />
      ) : null}
      {open?.kind === 'rotate-endpoint' ? (
        <SecretConfirmDialog
          title={t('webhooks.rotateEndpointTitle', { url: open.endpoint.url })}
          intro={t('webhooks.rotateIntro')}
          action={t('webhooks.rotateSecret')}
          act={() => withReauth(() => rotateEndpointSecret(open.endpoint.id))}
          onDone={() => undefined}
          onClose={onClose}
        />
      ) : null}
      {open?.kind === 'delete-endpoint' ? (
        <SecretConfirmDialog
          title={t('webhooks.deleteEndpointTitle', { url: open.endpoint.url })}
          intro={t('webhooks.deleteEndpointIntro')}
          action={t('webhooks.delete')}
          danger
          act={() => deleteEndpoint(open.endpoint.id)}
          onDone={() => closeWith(t('webhooks.deleted'), 'endpoints-heading')}
          onClose={onClose}
        />
      ) : null}
      {open?.kind === 'deliveries' ? <DeliveriesDialog target={open.target} onClose={onClose} /> : null}
    </>
  );
}
