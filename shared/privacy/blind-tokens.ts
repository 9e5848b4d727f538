import { createHmac, hkdfSync } from 'node:crypto';

/**
 * Keyed digests of words for a search index over sealed values (a blind index of words):
 * HMAC-SHA256 under a key derived (HKDF) from the team's index key for one purpose,
 * truncated to 16 bytes. Equal words of one team give equal tokens, so the database can
 * find them; a token opens nothing, and without the team's key (sealed with the KEK) it
 * cannot be tested against a guessed word. Tokens of other teams differ.
 */
export const BLIND_TOKEN_BYTES = 16;

const derived = new WeakMap<Buffer, Map<string, Buffer>>();

function purposeKey(teamIndexKey: Buffer, purpose: string): Buffer {
  let keys = derived.get(teamIndexKey);
  if (!keys) derived.set(teamIndexKey, (keys = new Map()));
  let key = keys.get(purpose);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', teamIndexKey, purpose, 'blind tokens v1', 32));
    keys.set(purpose, key);
  }
  return key;
}

/** The tokens of `words` (in their order) under the team's key for `purpose`. */
export function blindTokens(teamIndexKey: Buffer, purpose: string, words: Iterable<string>): Buffer[] {
  const key = purposeKey(teamIndexKey, purpose);
  return [...words].map((word) =>
    createHmac('sha256', key).update(word, 'utf8').digest().subarray(0, BLIND_TOKEN_BYTES),
  );
}
