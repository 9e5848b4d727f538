import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { AccessPage, SignInLink, useAccessForm } from './access-form.tsx';
import { acceptInvitation, readInvitation, type Session } from './api.ts';
import { CredentialField } from './credential-fields.tsx';
import { YourNameField } from './person-fields.tsx';

/**
 * Accept an invitation: the page names the team, who invited and the invited address (GET
 * /invitations/:token/details), then a name and a password, then signed in to the team. A link that
 * no longer works says so at once.
 */
export function InvitationScreen({
  navigate,
  token,
  onSignedIn,
}: {
  navigate: (path: string) => void;
  token: string;
  onSignedIn: (me: Session) => void;
}) {
  const [intro, setIntro] = useState(t('invitation.intro'));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    void readInvitation(token).then((answer) => {
      if (!answer.ok) return setProblem(problemMessage(answer.problem, t));
      const { team_name: team, invited_by: inviter, email, role } = answer.data.invitation;
      const values = { team, inviter: inviter ?? '', email, role: t(`role.${role}`) };
      setIntro(t(inviter ? 'invitation.introNamed' : 'invitation.introTeam', values));
    });
  }, [token]);
  const form = useAccessForm({
    initial: { name: '', password: '' },
    checks: () => ({ name: 'required', password: 'new-password' }),
    send: (body) => acceptInvitation(token, body),
    onDone: onSignedIn,
  });
  return (
    <AccessPage
      page="invitation"
      intro={problem ?? intro}
      form={form}
      links={<SignInLink navigate={navigate}>{t('invitation.signIn')}</SignInLink>}
    >
      <YourNameField {...form.field('name')} />
      <CredentialField kind="new-password" {...form.field('password')} />
    </AccessPage>
  );
}
