import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withoutLinkTokens } from './sent-mail.ts';

const a = 'a1'.repeat(32);
const b = 'b2'.repeat(32);
const short = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 8);

describe('withoutLinkTokens', () => {
  it('replaces every link token with a reference to its hash', () => {
    const text = `Open https://x.test/f/${a}\nor https://x.test/workspace/reset-password/${b}.`;
    const kept = withoutLinkTokens(text);
    expect(kept.tokens).toEqual([a, b]);
    expect(kept.text).toBe(
      `Open https://x.test/f/sent:${short(a)}\nor https://x.test/workspace/reset-password/sent:${short(b)}.`,
    );
    expect(kept.text).not.toContain(a.slice(0, 16));
  });

  it('leaves text without a token as it is', () => {
    const text = `Hello,\nid ${a.slice(0, 63)} and /x/${a}0`;
    expect(withoutLinkTokens(text)).toEqual({ text, tokens: [] });
  });
});
