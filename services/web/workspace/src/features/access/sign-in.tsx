import { useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { Link } from '../../ui/index.ts';
import { AccessPage, useAccessForm } from './access-form.tsx';
import { signIn, type Session } from './api.ts';
import { CredentialField } from './credential-fields.tsx';
import { EmailField } from './person-fields.tsx';

/** Sign in: email and password, then a two-factor code when the account has one. */
export function SignInScreen({
  navigate,
  onSignedIn,
  notice,
}: {
  navigate: (path: string) => void;
  onSignedIn: (me: Session) => void;
  notice: string | null;
}) {
  const [needsTotp, setNeedsTotp] = useState(false);
  // Instead of the two-factor code, one of the account's recovery codes (each works once).
  const [useRecovery, setUseRecovery] = useState(false);
  const form = useAccessForm({
    initial: { email: '', password: '', totp: '', recoveryCode: '' },
    checks: () => ({
      email: 'email',
      password: 'password',
      ...(needsTotp ? (useRecovery ? { recoveryCode: 'required' } : { totp: 'required' }) : {}),
    }),
    send: ({ email, password, totp, recoveryCode }) =>
      signIn({
        email,
        password,
        ...(needsTotp ? (useRecovery ? { recovery_code: recoveryCode } : { totp }) : {}),
      }),
    onDone: onSignedIn,
    explain: (problem) => {
      if (problem.code !== 'totp_required') return null;
      setNeedsTotp(true);
      return t('signIn.totpRequired');
    },
  });

  return (
    <AccessPage
      page="signIn"
      notice={notice}
      form={form}
      links={
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
      }
    >
      <EmailField autoComplete="username" {...form.field('email')} />
      <CredentialField kind="current-password" {...form.field('password')} />
      {needsTotp ? (
        <>
          {useRecovery ? (
            <CredentialField kind="recovery-code" key="recovery" {...form.field('recoveryCode')} autoFocus />
          ) : (
            <CredentialField
              kind="totp"
              key="totp"
              hint={t('field.totpHint')}
              {...form.field('totp')}
              autoFocus
            />
          )}
          <p>
            <button
              type="button"
              class="button-quiet"
              onClick={() => {
                setUseRecovery(!useRecovery);
                form.setError(null);
              }}
            >
              {useRecovery ? t('signIn.useTotp') : t('signIn.useRecoveryCode')}
            </button>
          </p>
        </>
      ) : null}
    </AccessPage>
  );
}
