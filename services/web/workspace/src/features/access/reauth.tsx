import { useCallback, useRef, useState } from 'preact/hooks';
import type { Outcome } from '../../../../shared/api/client.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { Dialog, ErrorMessage, useAction } from '../../ui/index.ts';
import { reauthenticate } from './api.ts';
import { CredentialField } from './credential-fields.tsx';

/** Runs a request again after the person confirms who they are; null when they cancel. */
export type WithReauth = <T>(request: () => Promise<Outcome<T>>) => Promise<Outcome<T> | null>;

/**
 * Re-authentication before sensitive actions: `withReauth(request)` runs the request; when the
 * API answers reauthentication_required it asks for the password (or a two-factor code) in a
 * dialog, confirms it (POST /sessions/current/reauth) and runs the same request again.
 */
export function useReauth() {
  const [asking, setAsking] = useState(false);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setAsking(true);
      }),
    [],
  );
  const finish = useCallback((confirmed: boolean) => {
    setAsking(false);
    resolver.current?.(confirmed);
    resolver.current = null;
  }, []);

  const withReauth = useCallback(
    async <T,>(request: () => Promise<Outcome<T>>): Promise<Outcome<T> | null> => {
      const first = await request();
      if (first.ok || first.problem.code !== 'reauthentication_required') return first;
      if (!(await ask())) return null;
      return request();
    },
    [ask],
  );

  const dialog = asking ? <ReauthDialog onDone={finish} /> : null;
  return { withReauth, dialog };
}

function ReauthDialog({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const [useCode, setUseCode] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { busy, error, setError, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const answer = await run(() => reauthenticate(useCode ? { totp: code } : { password }));
    if (answer === undefined) return;
    if (answer.ok) onDone(true);
    else if (answer.problem.code === 'invalid_credentials') setError(t('reauth.wrong'));
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <Dialog title={t('reauth.title')} onClose={() => onDone(false)}>
      <p>{t('reauth.intro')}</p>
      <ErrorMessage text={error} />
      <form onSubmit={(event) => void submit(event)} noValidate>
        {useCode ? (
          <CredentialField kind="totp" key="code" value={code} onValue={setCode} autoFocus />
        ) : (
          <CredentialField
            kind="current-password"
            key="password"
            value={password}
            onValue={setPassword}
            autoFocus
          />
        )}
        <div class="actions">
          <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
            {t('reauth.submit')}
          </button>
          <button type="button" class="button-quiet" onClick={() => setUseCode(!useCode)}>
            {useCode ? t('reauth.usePassword') : t('reauth.useCode')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
