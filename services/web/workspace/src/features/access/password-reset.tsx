import { useState } from 'preact/hooks';
import { call } from '../../api.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import {
  ErrorMessage,
  Link,
  ScreenHeading,
  Status,
  SubmitButton,
  useAction,
  useFieldCheck,
} from '../../ui/index.ts';
import { fieldErrors } from '../../validation.ts';
import { NewPasswordField } from './password-field.tsx';
import { EmailField } from './person-fields.tsx';

/** Forgot password: asks for a reset link; the answer never says whether the account exists. */
export function ForgotPasswordScreen({ navigate }: { navigate: (path: string) => void }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, setError, run } = useAction();
  const fields = useFieldCheck();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!fields.check(fieldErrors({ email: { kind: 'email', value: email } }, t))) return setError(null);
    const answer = await run(() => call('POST', '/password-resets', { body: { email } }));
    if (answer === undefined) return;
    if (answer.ok) setSent(true);
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <>
      <ScreenHeading>{t('forgot.title')}</ScreenHeading>
      <Status text={sent ? t('forgot.sent') : busy ? t('forgot.busy') : null} />
      <ErrorMessage text={error} />
      {sent ? null : (
        <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate>
          <p>{t('forgot.intro')}</p>
          <EmailField autoComplete="email" value={email} onValue={setEmail} error={fields.errors.email} />
          <SubmitButton busy={busy}>{t('forgot.submit')}</SubmitButton>
        </form>
      )}
      <p class="links">
        <Link href="/workspace/sign-in" navigate={navigate}>
          {t('forgot.back')}
        </Link>
      </p>
    </>
  );
}

/** Reset password with the emailed link's token; every session of the account ends. */
export function ResetPasswordScreen({
  navigate,
  token,
}: {
  navigate: (path: string) => void;
  token: string;
}) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, setError, run } = useAction();
  const fields = useFieldCheck();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!fields.check(fieldErrors({ password: { kind: 'new-password', value: password } }, t))) {
      return setError(null);
    }
    const answer = await run(() =>
      call('POST', `/password-resets/${encodeURIComponent(token)}`, {
        body: { password },
      }),
    );
    if (answer === undefined) return;
    if (answer.ok) setDone(true);
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <>
      <ScreenHeading>{t('reset.title')}</ScreenHeading>
      <Status text={done ? t('reset.done') : busy ? t('reset.busy') : null} />
      <ErrorMessage text={error} />
      {done ? null : (
        <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate>
          <NewPasswordField value={password} onValue={setPassword} error={fields.errors.password} />
          <SubmitButton busy={busy}>{t('reset.submit')}</SubmitButton>
        </form>
      )}
      <p class="links">
        <Link href="/workspace/sign-in" navigate={navigate}>
          {t('reset.signIn')}
        </Link>
      </p>
    </>
  );
}
