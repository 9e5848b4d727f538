import { t } from '../../i18n.ts';
import { Field } from '../../ui/index.ts';

interface Props {
  value: string;
  onValue: (value: string) => void;
  error?: string | null;
  /** What the browser may fill in: "email", "username" at sign-in, "off" for someone else's. */
  autoComplete: string;
}

/** The required email address of the access forms (sign in and up, reset, invite). */
export function EmailField({ value, onValue, error, autoComplete }: Props) {
  return (
    <Field
      label={t('field.email')}
      type="email"
      autoComplete={autoComplete}
      required
      value={value}
      onValue={onValue}
      error={error}
    />
  );
}

/** The required name of the access forms: your own (sign-up, invitation) or a new member's. */
export function NameField({ value, onValue, error, autoComplete, label }: Props & { label: string }) {
  return (
    <Field label={label} autoComplete={autoComplete} required value={value} onValue={onValue} error={error} />
  );
}
