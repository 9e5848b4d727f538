import { t } from '../../i18n.ts';
import { AccessPage, SignInLink, useAccessForm } from './access-form.tsx';
import { acceptInvitation, type Session } from './api.ts';
import { NewPasswordField } from './credential-fields.tsx';
import { YourNameField } from './person-fields.tsx';

/** Accept an invitation: a name and a password, then signed in to the team. */
export function InvitationScreen({
  navigate,
  token,
  onSignedIn,
}: {
  navigate: (path: string) => void;
  token: string;
  onSignedIn: (me: Session) => void;
}) {
  const form = useAccessForm({
    initial: { name: '', password: '' },
    checks: () => ({ name: 'required', password: 'new-password' }),
    send: (body) => acceptInvitation(token, body),
    onDone: onSignedIn,
  });
  return (
    <AccessPage
      title={t('invitation.title')}
      intro={t('invitation.intro')}
      status={form.busy ? t('invitation.busy') : null}
      form={form}
      submit={t('invitation.submit')}
      links={<SignInLink navigate={navigate}>{t('invitation.signIn')}</SignInLink>}
    >
      <YourNameField {...form.field('name')} />
      <NewPasswordField {...form.field('password')} />
    </AccessPage>
  );
}
