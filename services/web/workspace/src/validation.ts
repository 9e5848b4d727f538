import type { Translate } from './i18n.ts';

/** The problem of each field a person must fix before sending, by field name. */
export type FieldErrors = Record<string, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Pure: the same broad shape the API accepts (something@domain.tld), after trimming. */
export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/** Pure: the checks of the workspace's forms, by field kind; a field without a problem is absent. */
export function fieldErrors(
  fields: Record<string, { kind: 'required' | 'email' | 'new-password' | 'password'; value: string }>,
  t: Translate,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, { kind, value }] of Object.entries(fields)) {
    if (kind === 'email') {
      if (value.trim() === '') errors[name] = t('check.emailMissing');
      else if (!looksLikeEmail(value)) errors[name] = t('check.emailInvalid');
    } else if (kind === 'new-password') {
      if ([...value].length < 12) errors[name] = t('check.passwordShort');
      else if ([...value].length > 256) errors[name] = t('check.passwordLong');
    } else if (value.trim() === '') {
      errors[name] = t(kind === 'password' ? 'check.passwordMissing' : `check.${name}Missing`);
    }
  }
  return errors;
}
