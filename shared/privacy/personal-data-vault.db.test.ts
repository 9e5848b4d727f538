import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.ts';
import { generateKeyEncryptionKey, parseKeyRing, unwrapDataKey } from './key-encryption-key.ts';
import {
  OPEN_SLICE,
  ownCopy,
  PERSONAL_DATA_KEY_CACHE_SIZE,
  PersonalDataVault,
} from './personal-data-vault.ts';
import { installProcessKeyRing } from './process-key-ring.ts';

let database: TestDatabase;
const TEAM = randomUUID();
const keyRing = parseKeyRing(generateKeyEncryptionKey());
installProcessKeyRing(keyRing);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());

/** Counts the pool's queries, to see when a key comes from the cache. */
function countingPool() {
  const counter = { queries: 0 };
  const pool = {
    query: ((...args: Parameters<TestDatabase['pool']['query']>) => {
      counter.queries++;
      return (database.pool.query as (...a: unknown[]) => unknown)(...args);
    }) as TestDatabase['pool']['query'],
  };
  return { pool, counter };
}

describe('the key cache is bounded', () => {
  it(`holds ${PERSONAL_DATA_KEY_CACHE_SIZE.toLocaleString('en-US')} keys by default`, () => {
    expect(new PersonalDataVault(database.pool).cacheSize()).toEqual({
      keys: 0,
      max: PERSONAL_DATA_KEY_CACHE_SIZE,
    });
  });

  it('keeps only the most recently used keys; an evicted key is read again and still opens its values', async () => {
    const { pool, counter } = countingPool();
    const vault = new PersonalDataVault(pool, { maxKeys: 3 });
    const subjects = Array.from({ length: 5 }, () => randomUUID());
    const sealed = [];
    for (const subject of subjects) sealed.push(await vault.seal(TEAM, subject, `value of ${subject}`));
    expect(vault.cacheSize()).toEqual({ keys: 3, max: 3 });
    expect(vault.peekCachedKey(subjects[0]!)).toBeUndefined();
    expect(vault.peekCachedKey(subjects[1]!)).toBeUndefined();
    expect(vault.peekCachedKey(subjects[4]!)).toBeDefined();

    const cachedRead = counter.queries;
    expect(await vault.open(sealed[4])).toBe(`value of ${subjects[4]}`);
    expect(counter.queries).toBe(cachedRead); // from the cache

    expect(await vault.open(sealed[0])).toBe(`value of ${subjects[0]}`);
    expect(counter.queries).toBe(cachedRead + 1); // evicted: read from the table again
    expect(vault.cacheSize().keys).toBe(3);
    expect(vault.peekCachedKey(subjects[2]!)).toBeUndefined(); // now the least recently used
  });

  it('an erased subject leaves the cache and its values open as null', async () => {
    const vault = new PersonalDataVault(database.pool, { maxKeys: 3 });
    const subject = randomUUID();
    const sealed = await vault.seal(TEAM, subject, 'secret');
    await vault.erase(subject);
    expect(vault.peekCachedKey(subject)).toBeUndefined();
    expect(await vault.open(sealed)).toBeNull();
  });
});

describe('cached keys are copies in memory of their own', () => {
  it('pg hands a bytea as a slice of a shared slab; the cache keeps a 32-byte copy of the opened key', async () => {
    const vault = new PersonalDataVault(database.pool);
    const subject = randomUUID();
    const sealed = await vault.seal(TEAM, subject, 'Ada Lovelace');

    const { rows } = await database.pool.query<{ key: Buffer; kek_id: string }>(
      'select key, kek_id from personal_data_keys where subject_id = $1',
      [subject],
    );
    const wrapped = rows[0]!.key;
    expect(wrapped.length).toBe(12 + 16 + 32); // iv, tag, the sealed key
    expect(wrapped.buffer.byteLength).toBeGreaterThan(60); // the slab behind pg's slice
    const fromPg = unwrapDataKey(keyRing, subject, { key: wrapped, kekId: rows[0]!.kek_id });

    for (const fresh of [vault, new PersonalDataVault(database.pool)]) {
      if (fresh !== vault) expect(await fresh.open(sealed)).toBe('Ada Lovelace'); // fills its cache by a read
      const cached = fresh.peekCachedKey(subject)!;
      expect(cached.equals(fromPg)).toBe(true);
      expect(cached.byteOffset).toBe(0);
      expect(cached.buffer.byteLength).toBe(32);
    }
  });

  it('ownCopy copies the bytes into a buffer of exactly their size', () => {
    const slab = Buffer.allocUnsafe(8192).fill(7);
    const slice = slab.subarray(100, 132);
    const copy = ownCopy(slice);
    expect(copy.equals(slice)).toBe(true);
    expect(copy.buffer.byteLength).toBe(32);
    slab.fill(0);
    expect(copy.every((byte) => byte === 7)).toBe(true);
  });
});

describe('opening many values', () => {
  it('opens a long run a slice at a time, letting other work run between slices, in order', async () => {
    const vault = new PersonalDataVault(database.pool);
    const subjects = Array.from({ length: 3 }, () => randomUUID());
    const one = await Promise.all(subjects.map((subject) => vault.seal(TEAM, subject, `name of ${subject}`)));
    const values = Array.from({ length: OPEN_SLICE * 3 + 7 }, (_, at) =>
      at % 5 === 4 ? null : at % 5 === 3 ? `plain ${at}` : one[at % 3],
    );
    const expected = values.map((value, at) =>
      value === null ? null : typeof value === 'string' ? value : `name of ${subjects[at % 3]}`,
    );
    // Every key is cached (sealed above): nothing but the slicing lets other work in.
    const happened: string[] = [];
    const other = setImmediate(() => happened.push('other work'));
    const opened = await vault.openAll(values).finally(() => happened.push('opened'));
    clearImmediate(other);
    expect(happened).toEqual(['other work', 'opened']);
    expect(opened).toEqual(expected);

    // A page of values needs no turn of the event loop.
    const page: string[] = [];
    const next = setImmediate(() => page.push('other work'));
    await vault.openAll(values.slice(0, OPEN_SLICE)).finally(() => page.push('opened'));
    clearImmediate(next);
    expect(page).toEqual(['opened']);

    // An erased subject's values open as null wherever they stand in the run.
    await vault.erase(subjects[2]!);
    expect(await vault.openAll(values)).toEqual(
      expected.map((value, at) => (values[at] === one[2] ? null : value)),
    );
  });
});
