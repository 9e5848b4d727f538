import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { Pool } from '../db/pool.ts';
import type { Logger } from '../logging/logger.ts';
import { ERASURE_CHANNEL, ErasureListener } from './erasure-listener.ts';
import { unwrapDataKey, wrapDataKey, type KeyRing } from './key-encryption-key.ts';
import { processKeyRing } from './process-key-ring.ts';

/** An encrypted personal value as stored inside event data. */
export interface SealedValue {
  pd: 'v1';
  subject: string;
  /** base64 of iv (12) + auth tag (16) + ciphertext */
  box: string;
}

export const isSealed = (value: unknown): value is SealedValue =>
  typeof value === 'object' && value !== null && (value as { pd?: unknown }).pd === 'v1';

/** What a projection shows for a personal value whose key was erased. */
export const ERASED = null;

/**
 * Keys kept in memory at most: the most recently used subjects. One entry is a 32-byte key
 * in memory of its own plus its subject id and the cache's bookkeeping, a few hundred
 * bytes, so the full cache stays within a few MB; a subject evicted from it costs one
 * indexed read when it is next used.
 */
export const PERSONAL_DATA_KEY_CACHE_SIZE = 10_000;

/** Values openAll decrypts between two turns of the event loop (about 2 ms of AES-GCM). */
export const OPEN_SLICE = 250;

/**
 * A copy of a key in memory of its own. pg decodes a bytea into a slice of a shared 8 KB
 * slab (Buffer's pool); caching that slice would keep the whole slab alive for as long as
 * the key stays cached. Buffer.alloc never takes memory from that pool.
 */
export function ownCopy(key: Buffer): Buffer {
  const copy = Buffer.alloc(key.length);
  key.copy(copy);
  return copy;
}

/**
 * Per-subject keys for personal data in events (crypto-shredding). Keys are cached in
 * this process, in an LRU bounded by `maxKeys` (PERSONAL_DATA_KEY_CACHE_SIZE), each copied
 * out of pg's buffers (`ownCopy`); `erase` removes the key from the table and from the
 * cache, so nothing in this process can read the subject's data afterwards.
 *
 * Several instances: `erase` notifies ERASURE_CHANNEL at its commit, and every vault that
 * follows erasures (`followErasures`) drops the subject's key when the notification
 * arrives. While a vault does not listen (before its LISTEN connection is up, after it
 * broke) it caches nothing and reads each key from the table; when listening starts again
 * the cache starts empty. A key read while an erasure of it arrives is not cached.
 *
 * At rest every data key is sealed with the current key-encryption key (PERSONAL_DATA_KEK,
 * `keyRing`, else the process's), outside the database: a copy of the table alone opens nothing.
 */
export class PersonalDataVault {
  private readonly cache: LRUCache<string, Buffer>;
  private caching = true;
  /** Counts dropped keys: a read that saw it change meanwhile does not cache its key. */
  private invalidations = 0;
  private listener: ErasureListener | undefined;
  private readonly keyRing: KeyRing | undefined;

  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    { maxKeys = PERSONAL_DATA_KEY_CACHE_SIZE, keyRing }: { maxKeys?: number; keyRing?: KeyRing } = {},
  ) {
    this.cache = new LRUCache({ max: maxKeys });
    this.keyRing = keyRing;
  }

  private ring(): KeyRing {
    return this.keyRing ?? processKeyRing();
  }

  /** Keeps the cache in step with erasures in every process on this database (see the class). */
  followErasures(databaseUrl: string, logger: Logger): void {
    this.stopCaching();
    this.listener = new ErasureListener(
      databaseUrl,
      {
        erased: (subjectId) => this.forget(subjectId),
        listening: () => {
          this.cache.clear();
          this.caching = true;
        },
        lost: () => this.stopCaching(),
      },
      logger,
    );
    this.listener.start();
  }

  async close(): Promise<void> {
    await this.listener?.stop();
  }

  /** Drops a subject's cached key (an erasure elsewhere). */
  forget(subjectId: string): void {
    this.invalidations++;
    this.cache.delete(subjectId);
  }

  private stopCaching(): void {
    this.caching = false;
    this.invalidations++;
    this.cache.clear();
  }

  private remember(subjectId: string, key: Buffer, invalidationsBefore: number): void {
    if (this.caching && this.invalidations === invalidationsBefore) this.cache.set(subjectId, key);
  }

  /** Whether keys are cached now (false while erasure notifications may be missed). */
  cachingKeys(): boolean {
    return this.caching;
  }

  /** How many keys the cache holds, and at most (metrics, tests). */
  cacheSize(): { keys: number; max: number } {
    return { keys: this.cache.size, max: this.cache.max };
  }

  /** The cached key of a subject, without touching its recency (tests). */
  peekCachedKey(subjectId: string): Buffer | undefined {
    return this.cache.peek(subjectId);
  }

  async seal(
    teamId: string,
    subjectId: string,
    value: string | null | undefined,
  ): Promise<SealedValue | null> {
    if (value === null || value === undefined) return null;
    return sealWithKey(await this.keyFor(teamId, subjectId), subjectId, value);
  }

  /** The plain value, or null when the subject was erased (or the value was null). */
  async open(value: SealedValue | string | null | undefined): Promise<string | null> {
    if (value === null || value === undefined) return null;
    if (!isSealed(value)) return value;
    const key = await this.existingKey(value.subject);
    return key ? decrypt(key, value) : ERASED;
  }

  /**
   * Opens many values at once: the keys missing from the cache are read in one query, so a
   * page of rows costs at most one key read and one decryption per value. A long run (the
   * list sorted by client opens up to 5,000 names, about 40 ms of AES-GCM) is opened
   * `OPEN_SLICE` values at a time with a turn of the event loop between slices, so other
   * requests (another team's page) are not held behind it.
   */
  async openAll(
    values: ReadonlyArray<SealedValue | string | null | undefined>,
  ): Promise<Array<string | null>> {
    const keys = await this.existingKeys(values.filter(isSealed).map((value) => value.subject));
    const opened: Array<string | null> = [];
    for (let start = 0; start < values.length; start += OPEN_SLICE) {
      if (start > 0) await setImmediate();
      for (const value of values.slice(start, start + OPEN_SLICE)) {
        if (value === null || value === undefined) opened.push(null);
        else if (!isSealed(value)) opened.push(value);
        else {
          const key = keys.get(value.subject);
          opened.push(key ? decrypt(key, value) : ERASED);
        }
      }
    }
    return opened;
  }

  /** Bytes sealed with the subject's key (iv, tag, ciphertext); the subject is kept beside them. */
  async sealBytes(teamId: string, subjectId: string, bytes: Buffer): Promise<Buffer> {
    return encryptBytes(await this.keyFor(teamId, subjectId), bytes);
  }

  /** The plain bytes, or null once the subject is erased. */
  async openBytes(subjectId: string, sealed: Buffer): Promise<Buffer | null> {
    const key = await this.existingKey(subjectId);
    return key ? decryptBytes(key, sealed) : null;
  }

  /**
   * The team's key for blind indexes (a keyed hash of an email): a data key like a client's,
   * stored under the team's id and sealed with the KEK. It is never erased.
   */
  async teamIndexKey(teamId: string): Promise<Buffer> {
    return this.keyFor(teamId, teamId);
  }

  private async existingKeys(subjects: string[]): Promise<Map<string, Buffer>> {
    const keys = new Map<string, Buffer>();
    const missing: string[] = [];
    for (const subject of new Set(subjects)) {
      const cached = this.cache.get(subject);
      if (cached) keys.set(subject, cached);
      else missing.push(subject);
    }
    if (missing.length === 0) return keys;
    const invalidationsBefore = this.invalidations;
    const result = await this.pool.query<StoredKeyRow & { subject_id: string }>(
      'select subject_id, key, kek_id from personal_data_keys where subject_id = any($1::uuid[])',
      [missing],
    );
    for (const row of result.rows) {
      if (!row.key) continue;
      const key = ownCopy(unwrapDataKey(this.ring(), row.subject_id, { key: row.key, kekId: row.kek_id }));
      this.remember(row.subject_id, key, invalidationsBefore);
      keys.set(row.subject_id, key);
    }
    return keys;
  }

  /** Deletes the subject's key: every sealed value of it becomes unreadable for good. */
  async erase(subjectId: string): Promise<void> {
    // The notification is delivered at commit, to every process that listens (this one too).
    await this.pool.query(
      `with erased as (
         insert into personal_data_keys (subject_id, team_id, key, erased_at)
         values ($1, '00000000-0000-0000-0000-000000000000', null, now())
         on conflict (subject_id) do update set key = null, kek_id = null, erased_at = coalesce(personal_data_keys.erased_at, now())
         returning subject_id
       )
       select pg_notify('${ERASURE_CHANNEL}', subject_id::text) from erased`,
      [subjectId],
    );
    this.forget(subjectId);
  }

  async isErased(subjectId: string): Promise<boolean> {
    return (await this.existingKey(subjectId)) === null;
  }

  private async keyFor(teamId: string, subjectId: string): Promise<Buffer> {
    const cached = this.cache.get(subjectId);
    if (cached) return cached;
    const invalidationsBefore = this.invalidations;
    const wrapped = wrapDataKey(this.ring(), subjectId, randomBytes(32));
    const result = await this.pool.query<StoredKeyRow>(
      `with created as (
         insert into personal_data_keys (subject_id, team_id, key, kek_id) values ($1, $2, $3, $4)
         on conflict (subject_id) do nothing
         returning key, kek_id
       )
       select key, kek_id from created
       union all select key, kek_id from personal_data_keys where subject_id = $1 limit 1`,
      [subjectId, teamId, wrapped.key, wrapped.kekId],
    );
    // A concurrent first seal may have won the insert after this statement's snapshot was
    // taken: read again with a fresh snapshot.
    const row = result.rows[0]?.key ? result.rows[0] : await this.storedKey(subjectId);
    if (!row?.key) throw new Error(`Personal data of ${subjectId} was erased`);
    const key = ownCopy(unwrapDataKey(this.ring(), subjectId, { key: row.key, kekId: row.kek_id }));
    this.remember(subjectId, key, invalidationsBefore);
    return key;
  }

  private async existingKey(subjectId: string): Promise<Buffer | null> {
    const cached = this.cache.get(subjectId);
    if (cached) return cached;
    const invalidationsBefore = this.invalidations;
    const stored = await this.storedKey(subjectId);
    // Only real keys are cached: a subject without a key yet may get one from another process.
    if (!stored?.key) return null;
    const key = ownCopy(unwrapDataKey(this.ring(), subjectId, { key: stored.key, kekId: stored.kek_id }));
    this.remember(subjectId, key, invalidationsBefore);
    return key;
  }

  private async storedKey(subjectId: string): Promise<StoredKeyRow | undefined> {
    const result = await this.pool.query<StoredKeyRow>(
      'select key, kek_id from personal_data_keys where subject_id = $1',
      [subjectId],
    );
    return result.rows[0];
  }
}

interface StoredKeyRow {
  key: Buffer | null;
  kek_id: string | null;
}

type Queryable = Pick<Pool, 'query'>;

/**
 * Opens sealed values inside a projection's transaction (no cache: a rebuild after an
 * erasure reads the key table as it is then, and gets the same nulls as the live rows).
 */
export async function openSealed(
  db: Queryable,
  values: Array<SealedValue | string | null | undefined>,
  ring?: KeyRing,
): Promise<Array<string | null>> {
  const subjects = [...new Set(values.filter(isSealed).map((value) => value.subject))];
  const keyRows =
    subjects.length === 0
      ? []
      : (
          await db.query<StoredKeyRow & { subject_id: string }>(
            'select subject_id, key, kek_id from personal_data_keys where subject_id = any($1::uuid[])',
            [subjects],
          )
        ).rows;
  return openWithKeyRows(values, keyRows, ring);
}

/**
 * Opens sealed values with their subjects' key rows as read from personal_data_keys (by a
 * caller that read them with its own rows, in one statement); a subject without a key
 * (erased) opens as erased.
 */
export function openWithKeyRows(
  values: Array<SealedValue | string | null | undefined>,
  keyRows: Array<StoredKeyRow & { subject_id: string }>,
  ring?: KeyRing,
): Array<string | null> {
  const keys = new Map<string, Buffer>();
  for (const row of keyRows) {
    if (!row.key) continue;
    // The process's KEKs are needed only once there is a key to open.
    const kekRing = ring ?? processKeyRing();
    keys.set(row.subject_id, unwrapDataKey(kekRing, row.subject_id, { key: row.key, kekId: row.kek_id }));
  }
  return values.map((value) => {
    if (value === null || value === undefined) return null;
    if (!isSealed(value)) return value;
    const key = keys.get(value.subject);
    return key ? decrypt(key, value) : ERASED;
  });
}

function decrypt(key: Buffer, value: SealedValue): string {
  return decryptBytes(key, Buffer.from(value.box, 'base64')).toString('utf8');
}

/** A value sealed with a key already at hand (a caller that read it inside its transaction). */
export function sealWithKey(key: Buffer, subjectId: string, value: string): SealedValue {
  return {
    pd: 'v1',
    subject: subjectId,
    box: encryptBytes(key, Buffer.from(value, 'utf8')).toString('base64'),
  };
}

function encryptBytes(key: Buffer, bytes: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

function decryptBytes(key: Buffer, raw: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
}
