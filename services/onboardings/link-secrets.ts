import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import type { PinHash } from './onboarding-events.ts';

/**
 * Client access tokens and PINs. A token is 32 random bytes as 64 hex characters; only its
 * SHA-256 is kept (events, read models). A PIN is kept as scrypt with a random salt.
 *
 * scrypt is password-grade on purpose (about 50 ms of CPU and 16 MB per hash), so it runs
 * through the asynchronous `crypto.scrypt`, in libuv's thread pool: a busy PIN link costs
 * threads of that pool, never the event loop that answers every other request. At most
 * PIN_HASH_CONCURRENCY hashes run at once (one core less than the machine has, at least
 * one; the others wait in line): the thread pool's four threads hashing together would
 * take every core of a small machine from the event loop and from PostgreSQL.
 */
export const CLIENT_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export function issueClientToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('hex');
  return { token, hash: hashClientToken(token) };
}

export const hashClientToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const PIN_PATTERN = /^\d{6}$/;

const SCRYPT: ScryptOptions = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

export const PIN_HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);
const hashSlots = pLimit(PIN_HASH_CONCURRENCY);

let scryptRuns = 0;

/** How many PIN hashes (scrypt runs) this process has started: tests count a visit's hashes with it. */
export const pinHashRuns = (): number => scryptRuns;

function scryptAsync(pin: string, salt: string): Promise<Buffer> {
  scryptRuns += 1;
  return hashSlots(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(pin, salt, KEY_LENGTH, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

/** The stored form: hex salt (16 random bytes) and hex scrypt(pin, salt) of 32 bytes. */
export async function hashPin(pin: string): Promise<PinHash> {
  const salt = randomBytes(16).toString('hex');
  return { salt, hash: (await scryptAsync(pin, salt)).toString('hex') };
}

export async function verifyPin(pin: string, stored: PinHash): Promise<boolean> {
  if (!PIN_PATTERN.test(pin)) return false;
  const actual = await scryptAsync(pin, stored.salt);
  const expected = Buffer.from(stored.hash, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}
