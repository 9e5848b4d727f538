import { useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { AccessPage, SignInLink, useAccessForm } from './access-form.tsx';
import { requestPasswordReset, resetPassword } from './api.ts';
import { CredentialField } from './credential-fields.tsx';
import { EmailField } from './person-fields.tsx';

/** Forgot password: asks for a reset link; the answer never says whether the account exists. */
export function ForgotPasswordScreen({ navigate }: { navigate: (path: string) => void }) {
  const [sent, setSent] = useState(false);
  const form = useAccessForm({
    initial: { email: '' },
    checks: () => ({ email: 'email' }),
    send: ({ email }) => requestPasswordReset(email),
    onDone: () => setSent(true),
  });
  return (
    <AccessPage
      page="forgot"
      notice={sent ? t('forgot.sent') : null}
      form={form}
      done={sent}
      links={<SignInLink navigate={navigate}>{t('forgot.back')}</SignInLink>}
    >
      <p>{t('forgot.intro')}</p>
      <EmailField autoComplete="email" {...form.field('email')} />
    </AccessPage>
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
  const [done, setDone] = useState(false);
  const form = useAccessForm({
    initial: { password: '' },
    checks: () => ({ password: 'new-password' }),
    send: ({ password }) => resetPassword(token, password),
    onDone: () => setDone(true),
  });
  return (
    <AccessPage
      page="reset"
      notice={done ? t('reset.done') : null}
      form={form}
      done={done}
      links={<SignInLink navigate={navigate}>{t('reset.signIn')}</SignInLink>}
    >
      <CredentialField kind="new-password" {...form.field('password')} />
    </AccessPage>
  );
}
