import { t } from '../../i18n.ts';
import { Field } from '../../ui/index.ts';

interface Bound {
  value: string;
  onValue: (value: string) => void;
  error?: string | null;
}

/** The required email address of the access forms (sign in and up, reset, invite). */
export function EmailField({
  autoComplete,
  ...bound
}: Bound & {
  /** What the browser may fill in: "email", "username" at sign-in, "off" for someone else's. */
  autoComplete: string;
}) {
  return <Field label={t('field.email')} type="email" autoComplete={autoComplete} required {...bound} />;
}

/** Your own required name (sign-up, accepting an invitation). */
export function YourNameField(bound: Bound) {
  return <Field label={t('field.yourName')} autoComplete="name" required {...bound} />;
}

/** A new member's required name (inviting someone). */
export function MemberNameField(bound: Bound) {
  return <Field label={t('field.name')} autoComplete="off" required {...bound} />;
}
