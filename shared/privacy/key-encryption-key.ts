import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The key-encryption keys (KEKs) that seal the per-client data keys at rest
 * (PERSONAL_DATA_KEK). The first one seals every new or re-wrapped data key; the others
 * only open data keys sealed by them, until a rotation (`npm run kek:rotate`) re-wraps those.
 * The database stores each sealed data key with the id of the KEK that sealed it, never a KEK.
 */
export interface KeyRing {
  current: { id: string; key: Buffer };
  /** Every KEK by id, the current one included. */
  byId: ReadonlyMap<string, Buffer>;
}

export class KeyEncryptionKeyError extends Error {}

const KEK_ID = /^[A-Za-z0-9_.-]{1,40}$/;

/** A KEK written without an id gets one from its fingerprint, so the id stays the same across rotations. */
export function fingerprintId(key: Buffer): string {
  return `fp-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/**
 * Parses "KEY" or "id:KEY,id:KEY,..." where KEY is the base64 of 32 random bytes; the first
 * entry is the current KEK. Error messages never repeat a key.
 */
export function parseKeyRing(value: string): KeyRing {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new KeyEncryptionKeyError('expected at least one key');
  const byId = new Map<string, Buffer>();
  const ordered: Array<{ id: string; key: Buffer }> = [];
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const encoded = colon === -1 ? entry : entry.slice(colon + 1);
    const key = decodeKey(encoded);
    if (!key) {
      throw new KeyEncryptionKeyError(
        `entry ${index + 1} is not the base64 of 32 bytes (make one with: openssl rand -base64 32)`,
      );
    }
    const id = colon === -1 ? fingerprintId(key) : entry.slice(0, colon);
    if (!KEK_ID.test(id)) {
      throw new KeyEncryptionKeyError(`entry ${index + 1} has an id other than 1 to 40 of A-Z a-z 0-9 _ . -`);
    }
    if (byId.has(id)) throw new KeyEncryptionKeyError(`the id ${id} is listed twice`);
    byId.set(id, key);
    ordered.push({ id, key });
  });
  const ring = { current: ordered[0]!, byId };
  // A settings object or a ring that reaches a log shows the ids only.
  Object.defineProperty(ring, 'toJSON', {
    value: () => ({ current: ring.current.id, ids: [...byId.keys()] }),
  });
  return ring;
}

function decodeKey(encoded: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length === 32 ? key : undefined;
}

/** A new KEK written as the setting takes it (the base64 of 32 random bytes). */
export function generateKeyEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}

/** A data key as stored: sealed with the current KEK (AES-256-GCM, bound to its subject). */
export interface WrappedDataKey {
  key: Buffer;
  kekId: string;
}

/** iv (12) + auth tag (16) + the sealed data key; the subject id is the associated data. */
export function wrapDataKey(ring: KeyRing, subjectId: string, dataKey: Buffer): WrappedDataKey {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  cipher.setAAD(Buffer.from(subjectId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return { key: Buffer.concat([iv, cipher.getAuthTag(), sealed]), kekId: ring.current.id };
}

/**
 * The plain data key. A stored key without a KEK id is a data key from before KEKs (it is
 * wrapped at the next start). A KEK id the ring does not hold, or a KEK that does not open
 * the key, throws: never a wrong key that would open values into garbage.
 */
export function unwrapDataKey(
  ring: KeyRing,
  subjectId: string,
  stored: { key: Buffer; kekId: string | null },
): Buffer {
  if (stored.kekId === null) return stored.key;
  const kek = ring.byId.get(stored.kekId);
  if (!kek) {
    throw new KeyEncryptionKeyError(
      `the personal-data key of ${subjectId} is sealed by the key-encryption key "${stored.kekId}", which PERSONAL_DATA_KEK does not list`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', kek, stored.key.subarray(0, 12));
    decipher.setAAD(Buffer.from(subjectId, 'utf8'));
    decipher.setAuthTag(stored.key.subarray(12, 28));
    return Buffer.concat([decipher.update(stored.key.subarray(28)), decipher.final()]);
  } catch {
    throw new KeyEncryptionKeyError(
      `the personal-data key of ${subjectId} does not open with the key-encryption key "${stored.kekId}" of PERSONAL_DATA_KEK (a different key under the same id?)`,
    );
  }
}
