import { Field } from '../../ui/index.ts';
import { t } from '../../i18n.ts';

/** A field's value, its setter and its problem, as an access form binds them. */
interface Bound {
  value: string;
  onValue: (value: string) => void;
  error?: string | null;
  /** Takes focus when it appears (the second factor, a re-authentication dialog). */
  autoFocus?: boolean;
}

/** A new password, with its rules shown before typing. */
export function NewPasswordField(bound: Bound) {
  return (
    <Field
      label={t('field.password')}
      type="password"
      autoComplete="new-password"
      required
      minLength={12}
      maxLength={256}
      hint={t('field.passwordRules')}
      {...bound}
    />
  );
}

/** The password you sign in with (signing in, confirming it is you). */
export function CurrentPasswordField(bound: Bound) {
  return (
    <Field label={t('field.password')} type="password" autoComplete="current-password" required {...bound} />
  );
}

/** A code from the authenticator app (signing in, confirming it is you). */
export function TotpField({ hint, ...bound }: Bound & { hint?: string }) {
  return (
    <Field
      label={t('field.totp')}
      inputMode="numeric"
      autoComplete="one-time-code"
      hint={hint}
      required
      {...bound}
    />
  );
}

/** One of the account's two-factor recovery codes, instead of a code from the app. */
export function RecoveryCodeField(bound: Bound) {
  return (
    <Field
      label={t('field.recoveryCode')}
      autoComplete="off"
      autoCapitalize="none"
      spellcheck={false}
      hint={t('field.recoveryCodeHint')}
      required
      {...bound}
    />
  );
}
