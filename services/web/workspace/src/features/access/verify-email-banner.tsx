import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { getEmailVerification, resendEmailVerification } from './api.ts';

type Verification = Extract<Awaited<ReturnType<typeof getEmailVerification>>, { ok: true }>['data'];

/**
 * "Verify your email to send": shown on every screen of a team whose self-serve owner has
 * not followed the emailed link yet; the owner can ask for a new link.
 */
export function VerifyEmailBanner() {
  const [state, setState] = useState<Verification | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void getEmailVerification().then((answer) => {
      if (live && answer.ok) setState(answer.data);
    });
    return () => {
      live = false;
    };
  }, []);
  if (!state || state.team_verified) return null;
  const resend = async () => {
    if (busy) return;
    setBusy(true);
    setMessage(t('verifyBanner.resending'));
    const answer = await resendEmailVerification();
    setBusy(false);
    setMessage(answer.ok ? t('verifyBanner.resent') : problemMessage(answer.problem, t));
  };
  return (
    <section class="notice verify-banner" aria-labelledby="verify-banner-title">
      <p id="verify-banner-title" class="verify-banner-title">
        <strong>{t('verifyBanner.title')}</strong>
      </p>
      <p>{t(state.pending_for_me ? 'verifyBanner.owner' : 'verifyBanner.member')}</p>
      {state.pending_for_me ? (
        <button
          type="button"
          class="button-secondary"
          aria-disabled={busy || undefined}
          onClick={() => void resend()}
        >
          {t('verifyBanner.resend')}
        </button>
      ) : null}
      <p role="status" class="status">
        {message ?? ''}
      </p>
    </section>
  );
}
