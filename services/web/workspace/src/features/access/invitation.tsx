import { useState } from 'preact/hooks';
import { call, type SignedIn } from '../../api.ts';
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
import { NameField } from './person-fields.tsx';

/** Accept an invitation: a name and a password, then signed in to the team. */
export function InvitationScreen({
  navigate,
  token,
  onSignedIn,
}: {
  navigate: (path: string) => void;
  token: string;
  onSignedIn: (me: SignedIn) => void;
}) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, setError, run } = useAction();
  const fields = useFieldCheck();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = fieldErrors(
      { name: { kind: 'required', value: name }, password: { kind: 'new-password', value: password } },
      t,
    );
    if (!fields.check(found)) return setError(null);
    const answer = await run(() =>
      call<SignedIn>('POST', `/invitations/${encodeURIComponent(token)}/accept`, {
        body: { name, password },
      }),
    );
    if (answer === undefined) return;
    if (answer.ok) return onSignedIn(answer.data);
    setError(problemMessage(answer.problem, t));
  };
  return (
    <>
      <ScreenHeading>{t('invitation.title')}</ScreenHeading>
      <p>{t('invitation.intro')}</p>
      <Status text={busy ? t('invitation.busy') : null} />
      <ErrorMessage text={error} />
      <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate>
        <NameField
          label={t('field.yourName')}
          autoComplete="name"
          value={name}
          onValue={setName}
          error={fields.errors.name}
        />
        <NewPasswordField value={password} onValue={setPassword} error={fields.errors.password} />
        <SubmitButton busy={busy}>{t('invitation.submit')}</SubmitButton>
      </form>
      <p class="links">
        <Link href="/workspace/sign-in" navigate={navigate}>
          {t('invitation.signIn')}
        </Link>
      </p>
    </>
  );
}
