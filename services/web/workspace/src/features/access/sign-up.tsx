import { useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { Field, ScreenHeading } from '../../ui/index.ts';
import { AccessPage, SignInLink, useAccessForm } from './access-form.tsx';
import { signUp } from './api.ts';
import { CredentialField } from './credential-fields.tsx';
import { EmailField, YourNameField } from './person-fields.tsx';

/**
 * Sign up: a new team and its owner. The answer is "check your email" whether or not the
 * address already has an account (the service tells nobody else which); the emailed link
 * verifies the address, and the owner signs in.
 */
export function SignUpScreen({ navigate }: { navigate: (path: string) => void }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useAccessForm({
    initial: { teamName: '', name: '', email: '', password: '' },
    checks: () => ({ teamName: 'required', name: 'required', email: 'email', password: 'new-password' }),
    send: ({ teamName, name, email, password }) => signUp({ team_name: teamName, name, email, password }),
    onDone: (_, { email }) => setSentTo(email.trim()),
  });

  if (sentTo !== null) {
    return (
      <>
        <ScreenHeading>{t('signUp.checkTitle')}</ScreenHeading>
        <p>{t('signUp.checkEmail', { email: sentTo })}</p>
        <p class="muted">{t('signUp.checkExisting')}</p>
        <SignInLink navigate={navigate}>{t('signUp.checkSignIn')}</SignInLink>
      </>
    );
  }

  return (
    <AccessPage
      page="signUp"
      form={form}
      links={
        <SignInLink navigate={navigate} lead={t('signUp.haveAccount')}>
          {t('signUp.signIn')}
        </SignInLink>
      }
    >
      <Field label={t('field.teamName')} autoComplete="organization" required {...form.field('teamName')} />
      <YourNameField {...form.field('name')} />
      <EmailField autoComplete="email" {...form.field('email')} />
      <CredentialField kind="new-password" {...form.field('password')} />
    </AccessPage>
  );
}
