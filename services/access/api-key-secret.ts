import { createHash, randomBytes } from 'node:crypto';

/**
 * The secret of an API key: shown once at creation, stored only as its SHA-256 hash.
 * 32 random bytes make a hash lookup safe (no salt or slow hash is needed for a secret
 * that cannot be guessed). The prefix makes leaked keys easy to recognise by scanners.
 */
export const API_KEY_PREFIX = 'cos_';

export function generateApiKeySecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The characters of a secret shown to tell keys apart: `cos_` and 8 random ones (48 of its 256
 * random bits; what remains cannot be guessed). Recorded with the key; the rest never is.
 */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 8;
export const shownPrefix = (secret: string): string => secret.slice(0, API_KEY_SHOWN_LENGTH);

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * `expires_on` (YYYY-MM-DD) ends at the end of that UTC date: the last millisecond,
 * 23:59:59.999Z. A key is active while `now <= expires_at`, so it fails from
 * 00:00:00.000Z of the next day.
 */
export function expiresAtEndOfUtcDate(date: string): string {
  return `${date}T23:59:59.999Z`;
}

/** Is `date` (YYYY-MM-DD) a real calendar date? */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const parsed = new Date(`${date}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}

export function isExpired(expiresAt: string | Date | null, now: Date): boolean {
  if (expiresAt === null) return false;
  return now.getTime() > new Date(expiresAt).getTime();
}
