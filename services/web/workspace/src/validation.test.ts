import { describe, expect, it } from 'vitest';
import { LOCALE, messagesOf, translator } from './i18n.ts';
import { fieldErrors, looksLikeEmail } from './validation.ts';

const t = translator(messagesOf(LOCALE));

describe('fieldErrors', () => {
  it('names each missing or wrong field in words', () => {
    expect(
      fieldErrors(
        {
          teamName: { kind: 'required', value: ' ' },
          name: { kind: 'required', value: '' },
          email: { kind: 'email', value: 'nope' },
          password: { kind: 'new-password', value: 'short' },
        },
        t,
      ),
    ).toEqual({
      teamName: 'Enter the name of your team.',
      name: 'Enter a name.',
      email: 'Enter an email address like name@example.com.',
      password: 'The password must have at least 12 characters.',
    });
  });

  it('passes good values and counts characters as people see them', () => {
    expect(
      fieldErrors(
        {
          email: { kind: 'email', value: ' ann@example.com ' },
          password: { kind: 'new-password', value: '🙂'.repeat(12) },
          current: { kind: 'password', value: 'x' },
        },
        t,
      ),
    ).toEqual({});
    expect(fieldErrors({ current: { kind: 'password', value: '' } }, t)).toEqual({
      current: 'Enter your password.',
    });
    expect(looksLikeEmail('a@b')).toBe(false);
  });
});
