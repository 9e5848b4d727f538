import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { ErrorMessage, Status, useAction } from '../../../ui/index.ts';
import { countRecoveryCodes, newRecoveryCodes } from '../api.ts';
import type { WithReauth } from '../reauth.tsx';

/**
 * Two-factor recovery codes on the account screen: the new codes, shown once (when two-factor
 * was just turned on, or after "New recovery codes") with Copy and Download; otherwise how many
 * are left, and new ones after a re-authentication (the older ones stop working).
 */
export function RecoveryCodes({ initial, withReauth }: { initial: string[] | null; withReauth: WithReauth }) {
  const [codes, setCodes] = useState<string[] | null>(initial);
  const [remaining, setRemaining] = useState<number | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();

  useEffect(() => {
    if (codes) return;
    void countRecoveryCodes().then((answer) => {
      if (answer.ok) setRemaining(answer.data.remaining);
      else setError(problemMessage(answer.problem, t));
    });
  }, [codes]);

  const regenerate = async () => {
    if (busy) return;
    const answer = await run(() => withReauth(newRecoveryCodes));
    if (answer === undefined) return;
    if (answer === null) return setStatus(t('recovery.notChanged'));
    if (!answer.ok) return setError(problemMessage(answer.problem, t));
    setStatus(null);
    setCodes(answer.data.recovery_codes);
  };

  return (
    <div class="recovery">
      <h3>{t('recovery.title')}</h3>
      <Status text={status} />
      <ErrorMessage text={error} />
      {codes ? (
        <ShownCodes
          codes={codes}
          onSaved={() => {
            setCodes(null);
            setRemaining(null);
            setStatus(t('recovery.saved'));
          }}
        />
      ) : (
        <>
          <p>{t('recovery.help')}</p>
          {remaining === null ? null : (
            <p>
              <strong>{t('recovery.left', { count: remaining })}</strong>
            </p>
          )}
          <button
            type="button"
            class="button-secondary"
            aria-disabled={busy || undefined}
            onClick={() => void regenerate()}
          >
            {t('recovery.regenerate')}
          </button>
        </>
      )}
    </div>
  );
}

function ShownCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const heading = useRef<HTMLParagraphElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const text = `${t('recovery.fileIntro')}\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(t('recovery.copied'));
    } catch {
      setCopied(t('recovery.copyFailed'));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <>
      <p ref={heading} tabIndex={-1} class="recovery-once">
        <strong>{t('recovery.onlyNow')}</strong>
      </p>
      <p>{t('recovery.how')}</p>
      <ol class="recovery-codes" aria-label={t('recovery.listLabel')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Status text={copied} />
      <div class="actions">
        <button type="button" class="button-secondary" onClick={() => void copy()}>
          {t('recovery.copy')}
        </button>
        <button type="button" class="button-secondary" onClick={download}>
          {t('recovery.download')}
        </button>
        <button type="button" class="button-primary" onClick={onSaved}>
          {t('recovery.done')}
        </button>
      </div>
    </>
  );
}
