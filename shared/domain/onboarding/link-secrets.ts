import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { PinHash } from './onboarding-events.ts';

/**
 * Client access tokens and PINs. A token is 32 random bytes as 64 hex characters; only its
 * SHA-256 is kept (events, read models). A PIN is kept as scrypt with a random salt.
 */
export const CLIENT_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export function issueClientToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('hex');
  return { token, hash: hashClientToken(token) };
}

export const hashClientToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const PIN_PATTERN = /^\d{6}$/;

const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

export function hashPin(pin: string): PinHash {
  const salt = randomBytes(16).toString('hex');
  return { salt, hash: scryptSync(pin, salt, 32, SCRYPT).toString('hex') };
}

export function verifyPin(pin: string, stored: PinHash): boolean {
  if (!PIN_PATTERN.test(pin)) return false;
  const actual = scryptSync(pin, stored.salt, 32, SCRYPT);
  const expected = Buffer.from(stored.hash, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}
