import { useRef, useState } from 'preact/hooks';
import type { Translate } from '../i18n.ts';
import { pageTitle, ScreenHeading } from './heading.tsx';

export interface PinError {
  key: string;
  values?: Record<string, unknown>;
}

/**
 * The PIN screen of a link with a PIN: six digits, a numeric keyboard on phones. It says
 * what the client really received: the emails never hold the PIN (the team gives it by
 * another way), so the page points to the team, not to a message.
 */
export function PinScreen({
  team,
  t,
  initialError,
  onSubmit,
}: {
  team: string;
  t: Translate;
  initialError: PinError | null;
  /** Tries the PIN: null when it opened the form, else the error to show. */
  onSubmit(pin: string): Promise<PinError | null>;
}) {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<PinError | null>(initialError);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const title = t('pin.title');

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    const digits = pin.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError({ key: 'pin.format' });
      input.current?.focus();
      return;
    }
    setBusy(true);
    const refused = await onSubmit(digits);
    setBusy(false);
    if (refused) {
      setError(refused);
      setPin('');
      input.current?.focus();
    }
  }

  return (
    <section class="card pin" aria-labelledby="screen-title">
      <ScreenHeading documentTitle={pageTitle(t, title, team)} focusKey="pin">
        <span id="screen-title">{title}</span>
      </ScreenHeading>
      <p id="pin-intro">{t('pin.intro', { team })}</p>
      <p id="pin-help">{t('pin.help', { team })}</p>
      <form onSubmit={submit} noValidate>
        <div class={error ? 'field has-error' : 'field'}>
          <label for="pin">{t('pin.label')}</label>
          <p id="pin-error" class="error" role="alert">
            {error ? t(error.key, { team, ...error.values }) : ''}
          </p>
          <input
            ref={input}
            id="pin"
            name="pin"
            class="pin-input"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            aria-required="true"
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? 'pin-error pin-intro pin-help' : 'pin-intro pin-help'}
            value={pin}
            onInput={(event) => setPin(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
          />
        </div>
        <button type="submit" class="button primary" disabled={busy} aria-disabled={busy}>
          {busy ? t('pin.checking') : t('pin.submit')}
        </button>
      </form>
    </section>
  );
}
