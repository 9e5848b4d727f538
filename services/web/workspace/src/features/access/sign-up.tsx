import { useState } from 'preact/hooks';
import { call } from '../../api.ts';
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
import { fieldErrors } from '../../validation.ts';
import { NewPasswordField } from './password-field.tsx';
import { EmailField, NameField } from './person-fields.tsx';

/**
 * Sign up: a new team and its owner. The answer is "check your email" whether or not the
 * address already has an account (the service tells nobody else which); the emailed link
 * verifies the address, and the owner signs in.
 */
export function SignUpScreen({ navigate }: { navigate: (path: string) => void }) {
  const [teamName, setTeamName] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, setError, run } = useAction();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const fields = useFieldCheck();

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = fieldErrors(
      {
        teamName: { kind: 'required', value: teamName },
        name: { kind: 'required', value: name },
        email: { kind: 'email', value: email },
        password: { kind: 'new-password', value: password },
      },
      t,
    );
    if (!fields.check(found)) return setError(null);
    const answer = await run(() =>
      call('POST', '/sign-up', {
        body: { team_name: teamName, name, email, password },
      }),
    );
    if (answer === undefined) return;
    if (answer.ok) return setSentTo(email.trim());
    setError(problemMessage(answer.problem, t));
  };

  if (sentTo !== null) {
    return (
      <>
        <ScreenHeading>{t('signUp.checkTitle')}</ScreenHeading>
        <p>{t('signUp.checkEmail', { email: sentTo })}</p>
        <p class="muted">{t('signUp.checkExisting')}</p>
        <p class="links">
          <Link href="/workspace/sign-in" navigate={navigate}>
            {t('signUp.checkSignIn')}
          </Link>
        </p>
      </>
    );
  }

  return (
    <>
      <ScreenHeading>{t('signUp.title')}</ScreenHeading>
      <Status text={busy ? t('signUp.busy') : null} />
      <ErrorMessage text={error} />
      <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('field.teamName')}
          autoComplete="organization"
          required
          value={teamName}
          onValue={setTeamName}
          error={fields.errors.teamName}
        />
        <NameField
          label={t('field.yourName')}
          autoComplete="name"
          value={name}
          onValue={setName}
          error={fields.errors.name}
        />
        <EmailField autoComplete="email" value={email} onValue={setEmail} error={fields.errors.email} />
        <NewPasswordField value={password} onValue={setPassword} error={fields.errors.password} />
        <SubmitButton busy={busy}>{t('signUp.submit')}</SubmitButton>
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
