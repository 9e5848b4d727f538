import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Random secrets of the workspace (session ids, CSRF tokens, emailed link tokens): 32
 * random bytes as 64 hex characters (a path segment of that shape is redacted from logged
 * URLs by shared/logging/url-secrets.ts), stored only as their SHA-256.
 */
export const newSecret = (): string => randomBytes(32).toString('hex');

export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

/** Does `secret` hash to `hash`, compared in constant time. */
export function matchesHash(secret: string, hash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(hash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * The description of an emailed link's token in a path. Its schema caps it at its own 64
 * characters, well under the router's limit on a path parameter (100; beyond it the router
 * answers 414 before any route runs), so a longer token is the route's 400.
 */
export const TOKEN_PARAM = 'the emailed link’s token (64 hex characters)';
