import { useEffect, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { useReauth } from '../reauth.tsx';
import { groupedKey, qrSvg, sixDigits } from './two-factor.ts';
import { ErrorMessage, Field, ScreenHeading, Status, useAction, useFieldCheck } from '../../../ui/index.ts';
import { confirmTwoFactor, getTwoFactor, startTwoFactor, turnOffTwoFactor, type Session } from '../api.ts';
import { ChangePassword } from './change-password.tsx';
import { LanguageChoice } from './language-choice.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';
import { NotificationPreferences } from '../../notifications/index.ts';

type TwoFactor =
  | { state: 'loading' }
  | { state: 'off' }
  | { state: 'setting-up'; secret: string; uri: string }
  | { state: 'on'; recoveryCodes?: string[] };

/** Your account: the signed-in member's own two-factor sign-in (every role). */
export function AccountScreen({ me }: { me: Session }) {
  return (
    <>
      <ScreenHeading>{t('account.title')}</ScreenHeading>
      <p>{t('account.signedInAs', { name: me.member.name, email: me.member.email })}</p>
      <LanguageChoice me={me} />
      <NotificationPreferences />
      <TwoFactorSection />
      <ChangePassword />
    </>
  );
}

function TwoFactorSection() {
  const [twoFactor, setTwoFactor] = useState<TwoFactor>({ state: 'loading' });
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const fields = useFieldCheck();
  const { withReauth, dialog } = useReauth();

  useEffect(() => {
    void getTwoFactor().then((answer) => {
      if (answer.ok) setTwoFactor({ state: answer.data.enabled ? 'on' : 'off' });
      else setError(problemMessage(answer.problem, t));
    });
  }, []);

  const start = () =>
    run(async () => {
      const answer = await startTwoFactor();
      if (!answer.ok) return setError(problemMessage(answer.problem, t));
      setCode('');
      setTwoFactor({ state: 'setting-up', secret: answer.data.secret, uri: answer.data.otpauth_uri });
      setStatus(t('twoFactor.started'));
    });

  const confirm = (event: Event) => {
    event.preventDefault();
    const digits = sixDigits(code);
    if (!fields.check(digits ? {} : { code: t('twoFactor.codeShape') }) || !digits) return;
    void run(async () => {
      const answer = await confirmTwoFactor(digits);
      if (answer.ok) {
        setTwoFactor({ state: 'on', recoveryCodes: answer.data.recovery_codes });
        return setStatus(t('twoFactor.turnedOn'));
      }
      if (answer.problem.code === 'totp_invalid') fields.check({ code: t('twoFactor.codeWrong') });
      else setError(problemMessage(answer.problem, t));
    });
  };

  const turnOff = () =>
    run(async () => {
      const answer = await withReauth(turnOffTwoFactor);
      if (answer === null) return setStatus(t('twoFactor.notChanged'));
      if (!answer.ok) return setError(problemMessage(answer.problem, t));
      setTwoFactor({ state: 'off' });
      setStatus(t('twoFactor.turnedOff'));
    });

  return (
    <section class="card section" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t('twoFactor.title')}</h2>
      <Status text={status} />
      <ErrorMessage text={error} />
      {twoFactor.state === 'loading' ? (
        <p class="loading">{t('app.loading')}</p>
      ) : twoFactor.state === 'on' ? (
        <>
          <p class="state-on">
            <strong>{t('twoFactor.isOn')}</strong>
          </p>
          <p>{t('twoFactor.onHelp')}</p>
          <button
            type="button"
            class="button-secondary"
            aria-disabled={busy || undefined}
            onClick={() => void turnOff()}
          >
            {t('twoFactor.turnOff')}
          </button>
          <RecoveryCodes initial={twoFactor.recoveryCodes ?? null} withReauth={withReauth} />
        </>
      ) : twoFactor.state === 'off' ? (
        <>
          <p>
            <strong>{t('twoFactor.isOff')}</strong>
          </p>
          <p>{t('twoFactor.offHelp')}</p>
          <button
            type="button"
            class="button-primary"
            aria-disabled={busy || undefined}
            onClick={() => void start()}
          >
            {t('twoFactor.setUp')}
          </button>
        </>
      ) : (
        <SetupSteps
          uri={twoFactor.uri}
          secret={twoFactor.secret}
          code={code}
          onCode={setCode}
          fields={fields}
          busy={busy}
          onConfirm={confirm}
          onCancel={() => {
            setTwoFactor({ state: 'off' });
            setStatus(t('twoFactor.cancelled'));
          }}
        />
      )}
      {dialog}
    </section>
  );
}

/** Setting up: scan the QR code (or type the key), then confirm with a code from the app. */
function SetupSteps({
  uri,
  secret,
  code,
  onCode,
  fields,
  busy,
  onConfirm,
  onCancel,
}: {
  uri: string;
  secret: string;
  code: string;
  onCode: (code: string) => void;
  fields: ReturnType<typeof useFieldCheck>;
  busy: boolean;
  onConfirm: (event: Event) => void;
  onCancel: () => void;
}) {
  return (
    <ol class="setup-steps">
      <li>
        <p>{t('twoFactor.scan')}</p>
        <div
          class="qr-code"
          role="img"
          aria-label={t('twoFactor.qrLabel')}
          // uqr's SVG: rectangles and one path, no scripts or styles.
          dangerouslySetInnerHTML={{ __html: qrSvg(uri) }}
        />
        <p>{t('twoFactor.manual')}</p>
        <p>
          <code class="manual-key" aria-label={t('twoFactor.keyLabel')}>
            {groupedKey(secret)}
          </code>
        </p>
      </li>
      <li>
        <form ref={fields.form} onSubmit={onConfirm} noValidate class="plain">
          <Field
            label={t('twoFactor.codeLabel')}
            class="code-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            required
            value={code}
            onValue={onCode}
            error={fields.errors.code}
          />
          <div class="actions">
            <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
              {t('twoFactor.confirm')}
            </button>
            <button type="button" class="button-secondary" onClick={onCancel}>
              {t('twoFactor.cancel')}
            </button>
          </div>
        </form>
      </li>
    </ol>
  );
}
