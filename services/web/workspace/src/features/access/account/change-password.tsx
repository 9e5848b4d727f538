import { useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { useReauth } from '../reauth.tsx';
import { ErrorMessage, Status, useFieldCheck } from '../../../ui/index.ts';
import { fieldErrors } from '../../../validation.ts';
import { changePassword } from '../api.ts';
import { CredentialField } from '../credential-fields.tsx';

/**
 * Change your password: asks to confirm the current password (or a two-factor code) first,
 * refuses a common password in words, and signs out every other session.
 */
export function ChangePassword() {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = useFieldCheck();
  const { withReauth, dialog } = useReauth();

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!fields.check(fieldErrors({ password: { kind: 'new-password', value: password } }, t))) return;
    setBusy(true);
    setError(null);
    setStatus(null);
    const answer = await withReauth(() => changePassword(password));
    setBusy(false);
    if (answer === null) return setStatus(t('changePassword.notChanged'));
    if (answer.ok) {
      setPassword('');
      return setStatus(t('changePassword.changed'));
    }
    if (answer.problem.code === 'invalid_body') fields.check({ password: answer.problem.message });
    else setError(problemMessage(answer.problem, t));
  };

  return (
    <section class="card section" aria-labelledby="change-password-title">
      <h2 id="change-password-title">{t('changePassword.title')}</h2>
      <p>{t('changePassword.intro')}</p>
      <Status text={status} />
      <ErrorMessage text={error} />
      <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate class="plain">
        <CredentialField
          kind="new-password"
          value={password}
          onValue={setPassword}
          error={fields.errors.password}
        />
        <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
          {t('changePassword.submit')}
        </button>
      </form>
      {dialog}
    </section>
  );
}
