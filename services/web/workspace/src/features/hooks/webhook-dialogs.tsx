import { useEffect, useRef, useState } from 'preact/hooks';
import type { Outcome } from '../../../../shared/api/client.ts';
import { addEndpoint, addSubscription, type SubscriptionBody } from './api.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import {
  CheckGroup,
  ConfirmDialog,
  Dialog,
  ErrorMessage,
  Field,
  SubmitButton,
  useAction,
} from '../../ui/index.ts';
import { SecretCopy } from '../../ui/secret-copy.tsx';
import {
  ENDPOINT_EVENTS,
  HOOK_EVENTS,
  type HookSubscription,
  type SigningSecret,
  type WebhookEndpoint,
} from './webhooks.ts';
import type { WithReauth } from '../access/reauth.tsx';

type EventType = WebhookEndpoint['event_types'][number];

/** A secret shown once (or on request): read-only field, Copy, and what Copy did. */
export function SecretShown({ secret, note }: { secret: string; note?: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  return (
    <div ref={box} tabIndex={-1} class="outcome secret-box">
      {note ? <p class="warning">{note}</p> : null}
      <SecretCopy label={t('webhooks.secretLabel')} secret={secret} />
    </div>
  );
}

/** Pure: a URL a hook may call: https:// and no spaces (the service checks the rest). */
const isHttpsUrl = (url: string) => /^https:\/\/\S+$/i.test(url.trim());

/** The public HTTPS URL a subscription or an endpoint calls. */
function HttpsUrlField(props: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  error: string | null;
  autoFocus?: boolean;
}) {
  return <Field hint={t('webhooks.urlHint')} type="url" inputMode="url" required {...props} />;
}

/** Add a hook subscription: one event type and a public HTTPS URL. */
export function AddSubscriptionDialog({
  onAdded,
  onClose,
}: {
  onAdded: (subscription: HookSubscription) => void;
  onClose: () => void;
}) {
  const [event, setEvent] = useState<string>(HOOK_EVENTS[0]);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const submit = async (submitted: Event) => {
    submitted.preventDefault();
    if (busy) return;
    if (!isHttpsUrl(url)) {
      setUrlError(t('webhooks.urlInvalid'));
      document.getElementById('subscription-url')?.focus();
      return;
    }
    setUrlError(null);
    const answer = await run(() =>
      addSubscription({ event: event as SubscriptionBody['event'], target_url: url.trim() }),
    );
    if (answer === undefined) return;
    if (answer.ok) onAdded(answer.data.subscription);
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <Dialog title={t('webhooks.addSubscriptionTitle')} onClose={onClose}>
      <ErrorMessage text={error} />
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div class="field">
          <label for="subscription-event">{t('webhooks.event')}</label>
          <select
            id="subscription-event"
            value={event}
            onChange={(e) => setEvent((e.target as HTMLSelectElement).value)}
            autoFocus
          >
            {HOOK_EVENTS.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <HttpsUrlField
          id="subscription-url"
          label={t('webhooks.targetUrl')}
          value={url}
          onValue={setUrl}
          error={urlError}
        />
        <SubmitButton busy={busy}>{t('webhooks.addSubscription')}</SubmitButton>
      </form>
    </Dialog>
  );
}

/** Add a signed webhook endpoint: URL and event types; its secret is shown once. */
export function AddEndpointDialog({
  withReauth,
  onAdded,
  onClose,
}: {
  withReauth: WithReauth;
  onAdded: () => void;
  onClose: () => void;
}) {
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<EventType[]>([]);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [typesError, setTypesError] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const [secret, setSecret] = useState<string | null>(null);
  const submit = async (submitted: Event) => {
    submitted.preventDefault();
    if (busy) return;
    const badUrl = !isHttpsUrl(url);
    setUrlError(badUrl ? t('webhooks.urlInvalid') : null);
    setTypesError(types.length === 0 ? t('webhooks.typesRequired') : null);
    if (badUrl) return document.getElementById('endpoint-url')?.focus();
    if (types.length === 0) return document.getElementById('endpoint-type-0')?.focus();
    const answer = await run(() => withReauth(() => addEndpoint({ url: url.trim(), event_types: types })));
    if (answer === undefined) return;
    if (answer === null) setError(t('key.notChanged'));
    else if (answer.ok) {
      setSecret(answer.data.secret);
      onAdded();
    } else setError(problemMessage(answer.problem, t));
  };
  const toggle = (chosen: string, on: boolean) => {
    const type = chosen as EventType;
    setTypes((now) => (on ? [...now, type] : now.filter((each) => each !== type)));
  };
  return (
    <Dialog title={t('webhooks.addEndpointTitle')} onClose={onClose}>
      {secret ? (
        <>
          <SecretShown secret={secret} note={t('webhooks.secretOnce')} />
          <button type="button" class="button-secondary" onClick={onClose}>
            {t('key.done')}
          </button>
        </>
      ) : (
        <>
          <ErrorMessage text={error} />
          <form onSubmit={(e) => void submit(e)} noValidate>
            <HttpsUrlField
              id="endpoint-url"
              label={t('webhooks.endpointUrl')}
              value={url}
              onValue={setUrl}
              error={urlError}
              autoFocus
            />
            <CheckGroup
              legend={t('webhooks.eventTypes')}
              idPrefix="endpoint-type"
              errorId="endpoint-types-error"
              error={typesError}
              options={ENDPOINT_EVENTS.map((type) => ({ value: type, label: type }))}
              chosen={types}
              onChosen={toggle}
            />
            <SubmitButton busy={busy}>{t('webhooks.addEndpoint')}</SubmitButton>
          </form>
        </>
      )}
    </Dialog>
  );
}

/**
 * A confirmation before a change (delete, rotate) over the app's one ConfirmDialog; a secret
 * in the answer is shown once in the dialog, and `onDone` receives it (or null).
 */
export function SecretConfirmDialog({
  act,
  onDone,
  onClose,
  ...question
}: {
  title: string;
  intro: string;
  action: string;
  danger?: boolean;
  act: () => Promise<Outcome<unknown> | null>;
  onDone: (secret: SigningSecret | null) => void;
  onClose: () => void;
}) {
  const [shown, setShown] = useState<SigningSecret | null>(null);
  const done = (data: unknown) => {
    const answer = data as Partial<SigningSecret> | undefined;
    if (answer && typeof answer.secret === 'string') {
      const secret = { secret: answer.secret, previous_valid_until: answer.previous_valid_until ?? null };
      setShown(secret);
      onDone(secret);
    } else onDone(null);
  };
  return (
    <ConfirmDialog
      {...question}
      act={act}
      onDone={done}
      onClose={onClose}
      notDone={t('key.notChanged')}
      after={
        shown ? (
          <>
            <SecretShown
              secret={shown.secret}
              note={
                shown.previous_valid_until
                  ? t('webhooks.previousUntil', { when: formatDateTime(shown.previous_valid_until) })
                  : null
              }
            />
            <button type="button" class="button-secondary" onClick={onClose}>
              {t('key.done')}
            </button>
          </>
        ) : null
      }
    />
  );
}
