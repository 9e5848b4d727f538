import { useEffect, useRef, useState } from 'preact/hooks';
import type { Outcome } from '../../../../../shared/api/client.ts';
import { newIdempotencyKey } from '../../../api.ts';
import { todayUtc } from '../../../dates.ts';
import { t } from '../../../i18n.ts';
import { createKeyBody, keyResultOf, type KeyResult } from './key-results.ts';
import { problemMessage } from '../../../problems.ts';
import { OFFERED_SCOPES, SCOPE_LABELS } from '../../../../../../access/contract/scopes.ts';
import { CheckGroup, ConfirmDialog, Dialog, ErrorMessage, Field, Status } from '../../../ui/index.ts';
import { SecretCopy } from '../../../ui/secret-copy.tsx';
import {
  createApiKey,
  revokeApiKey,
  rotateApiKey,
  type ApiKey,
  type KeyCreated,
  type NewKey,
} from '../api.ts';
import type { WithReauth } from '../reauth.tsx';

/** A creation request with the Idempotency-Key of its attempt. */
type Attempt = () => Promise<Outcome<KeyCreated>>;

/** One creation attempt: its Idempotency-Key is kept, so Check repeats exactly the same request. */
function useKeyAttempt(withReauth: WithReauth, onChanged: () => void) {
  const attempt = useRef<Attempt | null>(null);
  const [result, setResult] = useState<KeyResult | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const send = async () => {
    const current = attempt.current;
    if (!current || sending.current) return;
    sending.current = true;
    setBusy(true);
    const answer = await withReauth(current);
    sending.current = false;
    setBusy(false);
    const next = keyResultOf(answer);
    setResult(next);
    if (next.state === 'created' || next.state === 'already_created') onChanged();
  };
  return {
    result,
    busy,
    start: (request: (idempotencyKey: string) => Promise<Outcome<KeyCreated>>) => {
      const idempotencyKey = newIdempotencyKey();
      attempt.current = () => request(idempotencyKey);
      setResult(null);
      return send();
    },
    check: () => send(),
  };
}

/** The outcome of an attempt: the secret once, or what is known, or a Check button. */
function KeyOutcome(props: { result: KeyResult; busy: boolean; onCheck: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  // The outcome replaces the form (or a Check button): focus moves to it, so it is read out
  // and keyboard focus is not lost on the page's body.
  useEffect(() => {
    if (props.result.state !== 'failed') box.current?.focus();
  }, [props.result]);
  return (
    <div ref={box} tabIndex={-1} class="outcome">
      <OutcomeText {...props} />
    </div>
  );
}

function OutcomeText({ result, busy, onCheck }: { result: KeyResult; busy: boolean; onCheck: () => void }) {
  if (result.state === 'created') {
    return (
      <div class="secret-box">
        <p class="warning">
          <strong>{t('key.onceWarning')}</strong>
        </p>
        <SecretCopy label={t('key.secretLabel')} secret={result.secret} />
      </div>
    );
  }
  if (result.state === 'already_created') {
    return (
      <div role="status" class="notice">
        <p>{t('key.alreadyCreated', { name: result.key.name })}</p>
      </div>
    );
  }
  if (result.state === 'uncertain') {
    return (
      <div class="notice">
        <ErrorMessage text={t('key.uncertain')} />
        <p>{t('key.uncertainHelp')}</p>
        <button type="button" class="button-primary" aria-disabled={busy || undefined} onClick={onCheck}>
          {t('key.check')}
        </button>
      </div>
    );
  }
  if (result.state === 'failed') return <ErrorMessage text={problemMessage(result.problem, t)} />;
  return <p role="status">{t('key.notChanged')}</p>;
}

/** Create key: optional name, at least one permission, optional expiry date (end of that UTC date). */
export function CreateKeyDialog({
  withReauth,
  onChanged,
  onClose,
}: {
  withReauth: WithReauth;
  onChanged: () => void;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<NewKey['scopes']>([]);
  const [expiresOn, setExpiresOn] = useState('');
  const [scopeError, setScopeError] = useState<string | null>(null);
  const attempt = useKeyAttempt(withReauth, onChanged);
  const result = attempt.result;
  const finished = result?.state === 'created' || result?.state === 'already_created';
  const showForm = result === null || result.state === 'failed' || result.state === 'cancelled';

  const submit = (event: Event) => {
    event.preventDefault();
    if (scopes.length === 0) {
      setScopeError(t('key.scopesRequired'));
      document.getElementById('key-scope-0')?.focus();
      return;
    }
    setScopeError(null);
    const body = createKeyBody(name, scopes, expiresOn);
    void attempt.start((idempotencyKey) => createApiKey(body, idempotencyKey));
  };
  const toggle = (scope: string, on: boolean) =>
    setScopes((now) => (on ? [...now, scope as (typeof now)[number]] : now.filter((each) => each !== scope)));

  return (
    <Dialog title={t('key.createTitle')} onClose={onClose}>
      <Status text={attempt.busy ? t('key.creating') : null} />
      {result ? (
        <KeyOutcome result={result} busy={attempt.busy} onCheck={() => void attempt.check()} />
      ) : null}
      {showForm ? (
        <form onSubmit={submit} noValidate>
          <Field
            label={t('field.keyName')}
            hint={t('key.nameHint')}
            maxLength={200}
            value={name}
            onValue={setName}
            autoFocus
          />
          <CheckGroup
            legend={t('key.permissions')}
            idPrefix="key-scope"
            errorId="key-scope-error"
            error={scopeError}
            options={OFFERED_SCOPES.map((scope) => ({ value: scope, label: SCOPE_LABELS[scope] }))}
            chosen={scopes}
            onChosen={toggle}
          />
          <Field
            label={t('field.expiresOn')}
            hint={t('key.expiryHint')}
            type="date"
            min={todayUtc()}
            value={expiresOn}
            onValue={setExpiresOn}
          />
          <button type="submit" class="button-primary" aria-disabled={attempt.busy || undefined}>
            {t('key.create')}
          </button>
        </form>
      ) : null}
      {finished ? (
        <button type="button" class="button-secondary" onClick={onClose}>
          {t('key.done')}
        </button>
      ) : null}
    </Dialog>
  );
}

/** The dialogs over one key: `onChanged` hears of a change (with its words, for a revocation). */
interface KeyDialog<Changed> {
  apiKey: ApiKey;
  withReauth: WithReauth;
  onChanged: Changed;
  onClose: () => void;
}

/** Rotate: a replacement with the same name, permissions and expiry; both keys stay active. */
export function RotateKeyDialog({ apiKey, withReauth, onChanged, onClose }: KeyDialog<() => void>) {
  const attempt = useKeyAttempt(withReauth, onChanged);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void attempt.start((idempotencyKey) => rotateApiKey(apiKey.id, idempotencyKey));
  }, []);
  const result = attempt.result;
  return (
    <Dialog title={t('key.rotateTitle', { name: apiKey.name })} onClose={onClose}>
      <p>{t('key.rotateIntro')}</p>
      <Status text={attempt.busy ? t('key.rotating') : null} />
      {result ? (
        <KeyOutcome result={result} busy={attempt.busy} onCheck={() => void attempt.check()} />
      ) : null}
      <button type="button" class="button-secondary" onClick={onClose}>
        {t('key.done')}
      </button>
    </Dialog>
  );
}

/** Revoke, after a confirmation: the key fails from its next request. */
export function RevokeKeyDialog({
  apiKey,
  withReauth,
  onChanged,
  onClose,
}: KeyDialog<(message: string) => void>) {
  return (
    <ConfirmDialog
      title={t('key.revokeTitle', { name: apiKey.name })}
      intro={t('key.revokeIntro')}
      action={t('key.revoke')}
      danger
      act={() => withReauth(() => revokeApiKey(apiKey.id))}
      onDone={() => onChanged(t('key.revoked', { name: apiKey.name }))}
      onClose={onClose}
    />
  );
}
