import { Field } from '../../ui/index.ts';
import { t } from '../../i18n.ts';

/** A new password, with its rules shown before typing. */
export function NewPasswordField({
  value,
  onValue,
  error,
}: {
  value: string;
  onValue: (value: string) => void;
  error?: string | null;
}) {
  return (
    <Field
      label={t('field.password')}
      type="password"
      autoComplete="new-password"
      required
      minLength={12}
      maxLength={256}
      hint={t('field.passwordRules')}
      error={error}
      value={value}
      onValue={onValue}
    />
  );
}
