import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The most common passwords: the ranked list of @zxcvbn-ts/language-common (about 49,000
 * passwords from public breach corpora, kept by the zxcvbn-ts project), loaded once,
 * lowercased. A password is common when it is on the list, or is a listed word with only
 * digits and symbols before or after it ("Password123!", "qwerty123456", "!!letmein2026"):
 * the variations people add to pass a length rule. Case does not matter.
 */
const COMMON: ReadonlySet<string> = new Set(
  dictionary['passwords-common'].map((password) => password.toLowerCase()),
);

/** A listed word must have this many characters to count as the core of a variation. */
const MIN_CORE_LENGTH = 4;
const EDGES = /^[\p{N}\p{P}\p{S}\s]*(.*?)[\p{N}\p{P}\p{S}\s]*$/u;

export function isCommonPassword(password: string): boolean {
  const lowered = password.toLowerCase();
  if (COMMON.has(lowered) || COMMON.has(lowered.trim())) return true;
  const core = EDGES.exec(lowered)?.[1] ?? '';
  if ([...core].length >= MIN_CORE_LENGTH && COMMON.has(core)) return true;
  // A listed password written twice ("qwertyqwerty").
  const half = lowered.length % 2 === 0 ? lowered.slice(0, lowered.length / 2) : '';
  return half.length >= MIN_CORE_LENGTH && half + half === lowered && COMMON.has(half);
}

export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most common passwords (or one with a few digits or symbols added), so it is easy to guess: choose another one.';
