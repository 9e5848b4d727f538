import { describe, expect, it } from 'vitest';
import { linkTokens } from './client-link.ts';

describe('linkTokens', () => {
  const a = 'a'.repeat(64);
  const b = '0123456789abcdef'.repeat(4);

  it('finds tokens of form page links and of portal API links', () => {
    const text = `Open your form: https://forms.example.com/f/${a}\nOld: https://x.test/portal/v1/onboardings/${b}`;
    expect(linkTokens(text)).toEqual([a, b]);
  });

  it('ignores other paths and short tokens', () => {
    expect(linkTokens(`https://x.test/g/${a} https://x.test/f/${'a'.repeat(63)}`)).toEqual([]);
  });
});
