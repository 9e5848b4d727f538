import { useState } from 'preact/hooks';
import { call, type SignedIn } from '../api.ts';
import { t } from '../i18n.ts';
import { problemMessage } from '../problems.ts';
import { ErrorMessage, Field, Link, ScreenHeading, Status } from '../ui.tsx';
import { NewPasswordField } from './password-field.tsx';

/** Sign up: a new team and its owner. */
export function SignUpScreen({
  navigate,
  onSignedIn,
}: {
  navigate: (path: string) => void;
  onSignedIn: (me: SignedIn) => void;
}) {
  const [teamName, setTeamName] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const answer = await call<SignedIn>('POST', '/sign-up', {
      body: { team_name: teamName, name, email, password },
    });
    setBusy(false);
    if (answer.ok) return onSignedIn(answer.data);
    setError(problemMessage(answer.problem, t));
  };

  return (
    <>
      <ScreenHeading>{t('signUp.title')}</ScreenHeading>
      <Status text={busy ? t('signUp.busy') : null} />
      <ErrorMessage text={error} />
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('field.teamName')}
          autoComplete="organization"
          required
          value={teamName}
          onValue={setTeamName}
        />
        <Field label={t('field.yourName')} autoComplete="name" required value={name} onValue={setName} />
        <Field
          label={t('field.email')}
          type="email"
          autoComplete="email"
          required
          value={email}
          onValue={setEmail}
        />
        <NewPasswordField value={password} onValue={setPassword} />
        <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
          {t('signUp.submit')}
        </button>
      </form>
      <p class="links">
        {t('signUp.haveAccount')}{' '}
        <Link href="/workspace/sign-in" navigate={navigate}>
          {t('signUp.signIn')}
        </Link>
      </p>
    </>
  );
}
