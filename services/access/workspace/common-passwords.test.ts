import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords.ts';
import { passwordProblem } from './password-rules.ts';

describe('common passwords', () => {
  it('finds listed passwords and listed words with digits or symbols around them, in any case', () => {
    for (const password of [
      'password123',
      'qwerty123',
      'Password123!',
      'qwerty123456',
      'iloveyou2026',
      '!!letmein2026',
      'qwertyqwerty',
      '123456789012',
      'QWERTYUIOP12',
    ]) {
      expect(isCommonPassword(password), password).toBe(true);
    }
  });

  it('lets passphrases and uncommon words through', () => {
    for (const password of [
      'correct horse battery staple',
      'a harbour ledger passphrase 5521',
      'tr0ub4dor&3xyz',
      'dragonfly-lake-7',
    ]) {
      expect(isCommonPassword(password), password).toBe(false);
    }
  });

  it('is a rule of every new password, said in words after the length rule', () => {
    expect(passwordProblem('qwerty123', 'a@example.com')).toMatch(/at least 12 characters/);
    expect(passwordProblem('Password123!', 'a@example.com')).toMatch(/one of the most common passwords/);
    expect(passwordProblem('correct horse battery staple', 'a@example.com')).toBeNull();
  });
});
