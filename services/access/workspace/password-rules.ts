import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords.ts';

/**
 * What a workspace password must be: 12 to 256 characters (counted as the person sees
 * them, by code point), not the account's email, and not a common password
 * (./common-passwords.ts). Returns the message a person reads,
 * or null for a good password.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) {
    return 'The password must not be your email address.';
  }
  if (isCommonPassword(password)) return COMMON_PASSWORD_MESSAGE;
  return null;
}
