import type { JSX } from 'preact';
import { Field } from '../../ui/index.ts';
import { t } from '../../i18n.ts';

type Input = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'label' | 'value' | 'onInput'>;
type Credential = 'new-password' | 'current-password' | 'totp' | 'recovery-code';

/**
 * The credentials the access forms ask for, each with its label, its hint (if any, shown
 * before typing) and what the browser should know of its input; every one is required.
 */
const CREDENTIALS: Record<Credential, { label: string; hint?: string; input: Input }> = {
  /** A new password, with its rules. */
  'new-password': {
    label: 'field.password',
    hint: 'field.passwordRules',
    input: { type: 'password', autoComplete: 'new-password', minLength: 12, maxLength: 256 },
  },
  /** The password you sign in with (signing in, confirming it is you). */
  'current-password': {
    label: 'field.password',
    input: { type: 'password', autoComplete: 'current-password' },
  },
  /** A code from the authenticator app (signing in, confirming it is you). */
  totp: { label: 'field.totp', input: { inputMode: 'numeric', autoComplete: 'one-time-code' } },
  /** One of the account's two-factor recovery codes, instead of a code from the app. */
  'recovery-code': {
    label: 'field.recoveryCode',
    hint: 'field.recoveryCodeHint',
    input: { autoComplete: 'off', autoCapitalize: 'none', spellcheck: false },
  },
};

/** A credential field of an access form, bound to its value, setter and problem. */
export function CredentialField({
  kind,
  hint,
  ...bound
}: {
  kind: Credential;
  value: string;
  onValue: (value: string) => void;
  error?: string | null;
  /** Words under the label instead of the credential's own hint, if any. */
  hint?: string;
  /** Takes focus when it appears (the second factor, a re-authentication dialog). */
  autoFocus?: boolean;
}) {
  const credential = CREDENTIALS[kind];
  const hintKey = credential.hint;
  return (
    <Field
      label={t(credential.label)}
      hint={hint ?? (hintKey ? t(hintKey) : undefined)}
      required
      {...credential.input}
      {...bound}
    />
  );
}
