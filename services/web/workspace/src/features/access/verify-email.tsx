import { useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { ErrorMessage, Link, ScreenHeading, Status, useAction } from '../../ui/index.ts';
import { verifyEmail } from './api.ts';

/**
 * The emailed verification link: one button confirms (a link opened by a mail scanner
 * verifies nothing), then the team may send.
 */
export function VerifyEmailScreen({
  navigate,
  token,
  signedIn,
}: {
  navigate: (path: string) => void;
  token: string;
  signedIn: boolean;
}) {
  const [done, setDone] = useState(false);
  const { busy, error, setError, run } = useAction();
  const verify = async () => {
    if (busy) return;
    const answer = await run(() => verifyEmail(token));
    if (answer === undefined) return;
    if (answer.ok) setDone(true);
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <>
      <ScreenHeading>{t('verifyEmail.title')}</ScreenHeading>
      <Status text={done ? t('verifyEmail.done') : busy ? t('verifyEmail.busy') : null} />
      <ErrorMessage text={error} />
      {done ? null : (
        <>
          <p>{t('verifyEmail.intro')}</p>
          <button
            type="button"
            class="button-primary"
            aria-disabled={busy || undefined}
            onClick={() => void verify()}
          >
            {t('verifyEmail.submit')}
          </button>
        </>
      )}
      <p class="links">
        <Link href={signedIn ? '/workspace/onboardings' : '/workspace/sign-in'} navigate={navigate}>
          {t(done ? 'verifyEmail.continue' : 'forgot.back')}
        </Link>
      </p>
    </>
  );
}
