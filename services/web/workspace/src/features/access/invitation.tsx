import { t } from '../../i18n.ts';
import { AccessPage, SignInLink, useAccessForm } from './access-form.tsx';
import { acceptInvitation, type Session } from './api.ts';
import { CredentialField } from './credential-fields.tsx';
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
      page="invitation"
      intro={t('invitation.intro')}
      form={form}
      links={<SignInLink navigate={navigate}>{t('invitation.signIn')}</SignInLink>}
    >
      <YourNameField {...form.field('name')} />
      <CredentialField kind="new-password" {...form.field('password')} />
    </AccessPage>
  );
}
