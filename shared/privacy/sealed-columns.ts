import { createCipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Pool } from '../db/pool.ts';
import { unwrapDataKey, wrapDataKey } from './key-encryption-key.ts';
import {
  isSealed,
  ownCopy,
  sealWithKey,
  type PersonalDataVault,
  type SealedValue,
} from './personal-data-vault.ts';
import { processKeyRing } from './process-key-ring.ts';

/**
 * The one way personal data is kept in read models and operational tables: sealed with the
 * client's data key (the envelope of personal-data-vault.ts), opened when read. Deleting the
 * key then makes live rows, dead tuples, WAL and backups unreadable alike.
 *
 * - A text column holds the envelope as JSON text (`{"pd":"v1","subject":…,"box":…}`).
 * - A jsonb column holds the envelope itself; inside it is the JSON text of the value.
 * - Envelopes nested in a jsonb object (a signature's signer_name) hold a plain string.
 * - Projections copy the envelope the event already carries: no opening, no re-sealing.
 * - A value that is not an envelope is read as it is (rows written before sealing).
 */

type Opener = Pick<PersonalDataVault, 'openAll'>;

/** The text a text column stores for a sealed value (null stays null). */
export const sealedText = (value: SealedValue | string | null | undefined): string | null =>
  value === null || value === undefined ? null : isSealed(value) ? JSON.stringify(value) : value;

/** The envelope a stored text column holds, or the text itself when it holds none. */
export function storedValue(stored: unknown): SealedValue | string | null {
  if (stored === null || stored === undefined) return null;
  if (isSealed(stored)) return stored;
  if (typeof stored !== 'string') return JSON.stringify(stored);
  // jsonb as text spaces its keys: any object text is tried.
  if (stored.startsWith('{') && stored.includes('"pd"')) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (isSealed(parsed)) return parsed;
    } catch {
      // Not an envelope: a plain text that happens to start like one.
    }
  }
  return stored;
}

/**
 * Opens the named text columns of every row, with one key read for all rows' subjects
 * missing from the cache. A column whose key is erased reads null. Equal stored texts (a
 * client's name on each of its onboardings in a page) are parsed and decrypted once.
 */
export async function openTextColumns<Row extends object, Column extends keyof Row & string>(
  vault: Opener,
  rows: readonly Row[],
  columns: readonly Column[],
): Promise<Array<Omit<Row, Column> & Record<Column, string | null>>> {
  const distinct = new Map<unknown, number>();
  const cells = rows.flatMap((row) =>
    columns.map((column) => {
      const stored = row[column];
      let at = distinct.get(stored);
      if (at === undefined) distinct.set(stored, (at = distinct.size));
      return at;
    }),
  );
  const texts = await vault.openAll([...distinct.keys()].map(storedValue));
  return rows.map((row, index) => {
    const opened: Record<string, unknown> = { ...(row as Record<string, unknown>) };
    columns.forEach((column, at) => (opened[column] = texts[cells[index * columns.length + at]!]));
    return opened as Omit<Row, Column> & Record<Column, string | null>;
  });
}

/**
 * Opens jsonb values: an envelope at the top holds JSON text (parsed back), an envelope
 * nested in an object holds a string. An envelope whose key is erased reads null.
 */
export async function openJsonValues(vault: Opener, values: readonly unknown[]): Promise<unknown[]> {
  const found: SealedValue[] = [];
  const collect = (value: unknown): void => {
    if (isSealed(value)) found.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  values.forEach(collect);
  if (found.length === 0) return [...values];
  const texts = await vault.openAll(found);
  const opened = new Map(found.map((envelope, index) => [envelope, texts[index]]));
  const replace = (value: unknown): unknown => {
    if (isSealed(value)) return opened.get(value) ?? null;
    if (Array.isArray(value)) return value.map(replace);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, replace(inner)]));
    }
    return value;
  };
  return values.map((value) => {
    if (!isSealed(value)) return replace(value);
    const text = opened.get(value);
    return text === null || text === undefined ? null : (JSON.parse(text) as unknown);
  });
}

/** Seals a text for a column (its subject is the client), or keeps null. */
export async function sealTextFor(
  vault: Pick<PersonalDataVault, 'seal'>,
  teamId: string,
  clientId: string,
  text: string | null,
): Promise<string | null> {
  return sealedText(await vault.seal(teamId, clientId, text));
}

/**
 * Seals texts for columns inside the caller's transaction, with the subject's key as the key
 * table holds it then; undefined once the key is erased (nothing may be written for it).
 */
export async function sealTextsIn(
  db: Pick<Pool, 'query'>,
  subjectId: string,
  texts: readonly string[],
): Promise<string[] | undefined> {
  const key = await keyIn(db, subjectId);
  return key && texts.map((text) => JSON.stringify(sealWithKey(key, subjectId, text)));
}

/** Bytes sealed inside the caller's transaction (iv, tag, ciphertext); undefined once erased. */
export async function sealBytesIn(
  db: Pick<Pool, 'query'>,
  subjectId: string,
  bytes: Buffer,
): Promise<Buffer | undefined> {
  const key = await keyIn(db, subjectId);
  if (!key) return undefined;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

async function keyIn(db: Pick<Pool, 'query'>, subjectId: string): Promise<Buffer | undefined> {
  const { rows } = await db.query<{ key: Buffer | null; kek_id: string | null }>(
    'select key, kek_id from personal_data_keys where subject_id = $1',
    [subjectId],
  );
  const row = rows[0];
  return row?.key
    ? unwrapDataKey(processKeyRing(), subjectId, { key: row.key, kekId: row.kek_id })
    : undefined;
}

/**
 * The blind index of an email within a team: HMAC-SHA256 under a key derived from the
 * team's index key (a data key sealed with the KEK, never erased). Equal emails of one team
 * give equal indexes, so a per-team lookup and uniqueness stay enforceable; the index opens
 * nothing and without the KEK it cannot even be tested against a guessed address.
 */
export function emailBlindIndex(teamIndexKey: Buffer, normalizedEmail: string): string {
  return createHmac('sha256', blindIndexKey(teamIndexKey))
    .update(normalizedEmail, 'utf8')
    .digest('base64url');
}

/** The HMAC key derived from a team's index key, derived once per key object (index keys are cached). */
const blindIndexKeys = new WeakMap<Buffer, Buffer>();
function blindIndexKey(teamIndexKey: Buffer): Buffer {
  let key = blindIndexKeys.get(teamIndexKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', teamIndexKey, 'client email', 'blind index v1', 32));
    blindIndexKeys.set(teamIndexKey, key);
  }
  return key;
}

/** Team index keys by team id: they are never erased, so caching them in the process is safe. */
const teamIndexKeys = new Map<string, Buffer>();

/**
 * The team's index key inside a projection's transaction (the vault's teamIndexKey outside
 * one): read, or created once, from personal_data_keys under the team's id.
 */
export async function teamIndexKeyIn(db: Pick<Pool, 'query'>, teamId: string): Promise<Buffer> {
  const cached = teamIndexKeys.get(teamId);
  if (cached) return cached;
  const ring = processKeyRing();
  const wrapped = wrapDataKey(ring, teamId, randomBytes(32));
  await db.query(
    `insert into personal_data_keys (subject_id, team_id, key, kek_id) values ($1, $1, $2, $3)
     on conflict (subject_id) do nothing`,
    [teamId, wrapped.key, wrapped.kekId],
  );
  const stored = await db.query<{ key: Buffer | null; kek_id: string | null }>(
    'select key, kek_id from personal_data_keys where subject_id = $1',
    [teamId],
  );
  const row = stored.rows[0];
  if (!row?.key) throw new Error(`The index key of team ${teamId} is missing`);
  const key = ownCopy(unwrapDataKey(ring, teamId, { key: row.key, kekId: row.kek_id }));
  teamIndexKeys.set(teamId, key);
  return key;
}
