import { useState } from 'preact/hooks';
import { call, type SignedIn } from '../../api.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import {
  ErrorMessage,
  Field,
  Link,
  ScreenHeading,
  Status,
  SubmitButton,
  useAction,
  useFieldCheck,
} from '../../ui/index.ts';
import { fieldErrors, type FieldErrors } from '../../validation.ts';
import { EmailField } from './person-fields.tsx';

/** Sign in: email and password, then a two-factor code when the account has one. */
export function SignInScreen({
  navigate,
  onSignedIn,
  notice,
}: {
  navigate: (path: string) => void;
  onSignedIn: (me: SignedIn) => void;
  notice: string | null;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  // Instead of the two-factor code, one of the account's recovery codes (each works once).
  const [useRecovery, setUseRecovery] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const { busy, error, setError, run } = useAction();
  const fields = useFieldCheck();

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = fieldErrors(
      {
        email: { kind: 'email', value: email },
        password: { kind: 'password', value: password },
        ...(needsTotp && !useRecovery ? { totp: { kind: 'required' as const, value: totp } } : {}),
        ...(needsTotp && useRecovery
          ? { recoveryCode: { kind: 'required' as const, value: recoveryCode } }
          : {}),
      },
      t,
    );
    if (!fields.check(found)) return setError(null);
    const answer = await run(() =>
      call<SignedIn>('POST', '/sessions', {
        body: {
          email,
          password,
          ...(needsTotp ? (useRecovery ? { recovery_code: recoveryCode } : { totp }) : {}),
        },
      }),
    );
    if (answer === undefined) return;
    if (answer.ok) return onSignedIn(answer.data);
    if (answer.problem.code === 'totp_required') {
      setNeedsTotp(true);
      setError(t('signIn.totpRequired'));
      return;
    }
    setError(problemMessage(answer.problem, t));
  };

  return (
    <>
      <ScreenHeading>{t('signIn.title')}</ScreenHeading>
      <Status text={busy ? t('signIn.busy') : notice} />
      <ErrorMessage text={error} />
      <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate>
        <EmailField autoComplete="username" value={email} onValue={setEmail} error={fields.errors.email} />
        <Field
          label={t('field.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
          error={fields.errors.password}
        />
        {needsTotp ? (
          <SecondFactor
            useRecovery={useRecovery}
            totp={totp}
            onTotp={setTotp}
            recoveryCode={recoveryCode}
            onRecoveryCode={setRecoveryCode}
            errors={fields.errors}
            onSwitch={() => {
              setUseRecovery(!useRecovery);
              setError(null);
            }}
          />
        ) : null}
        <SubmitButton busy={busy}>{t('signIn.submit')}</SubmitButton>
      </form>
      <ul class="links">
        <li>
          <Link href="/workspace/forgot-password" navigate={navigate}>
            {t('signIn.forgot')}
          </Link>
        </li>
        <li>
          {t('signIn.noAccount')}{' '}
          <Link href="/workspace/sign-up" navigate={navigate}>
            {t('signIn.signUp')}
          </Link>
        </li>
      </ul>
    </>
  );
}

/** The second factor: a code from the authenticator app, or one of the account's recovery codes. */
function SecondFactor({
  useRecovery,
  totp,
  onTotp,
  recoveryCode,
  onRecoveryCode,
  errors,
  onSwitch,
}: {
  useRecovery: boolean;
  totp: string;
  onTotp: (value: string) => void;
  recoveryCode: string;
  onRecoveryCode: (value: string) => void;
  errors: FieldErrors;
  onSwitch: () => void;
}) {
  return (
    <>
      {!useRecovery ? (
        <Field
          key="totp"
          label={t('field.totp')}
          inputMode="numeric"
          autoComplete="one-time-code"
          hint={t('field.totpHint')}
          required
          value={totp}
          onValue={onTotp}
          error={errors.totp}
          autoFocus
        />
      ) : null}
      {useRecovery ? (
        <Field
          key="recovery"
          label={t('field.recoveryCode')}
          autoComplete="off"
          autoCapitalize="none"
          spellcheck={false}
          hint={t('field.recoveryCodeHint')}
          required
          value={recoveryCode}
          onValue={onRecoveryCode}
          error={errors.recoveryCode}
          autoFocus
        />
      ) : null}
      <p>
        <button type="button" class="button-quiet" onClick={onSwitch}>
          {useRecovery ? t('signIn.useTotp') : t('signIn.useRecoveryCode')}
        </button>
      </p>
    </>
  );
}
