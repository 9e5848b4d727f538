import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, stopContext } from '../../../services/app/runtime.ts';
import { loadSettings } from '../../../shared/config/settings.ts';
import { createPool } from '../../../shared/db/pool.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import {
  generateKeyEncryptionKey,
  KeyEncryptionKeyError,
  parseKeyRing,
  unwrapDataKey,
} from '../../../shared/privacy/key-encryption-key.ts';
import {
  openSealed,
  PersonalDataVault,
  type SealedValue,
} from '../../../shared/privacy/personal-data-vault.ts';
import { rewrapDataKeys } from '../../../shared/privacy/rewrap-data-keys.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { registerSecrets } from '../../helpers/run-log.ts';

/**
 * The key-encryption key (PERSONAL_DATA_KEK) that seals the personal-data keys: plain keys
 * of an older database are sealed at the start, a rotation re-wraps every key in batches
 * while keys are being made, and the old KEK can then be dropped.
 */

const KEY_OLD = generateKeyEncryptionKey();
const KEY_NEW = generateKeyEncryptionKey();
registerSecrets(KEY_OLD, KEY_NEW);
const TEAM = randomUUID();

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());

async function storedKeys(subjects: string[]) {
  const { rows } = await database.pool.query<{
    subject_id: string;
    key: Buffer | null;
    kek_id: string | null;
  }>(
    'select subject_id, key, kek_id from personal_data_keys where subject_id = any($1::uuid[]) order by subject_id',
    [subjects],
  );
  return rows;
}

/** Seals one value for each of `count` new subjects. */
async function sealSubjects(vault: PersonalDataVault, count: number) {
  const sealed: Array<{ subject: string; value: SealedValue; text: string }> = [];
  for (let index = 0; index < count; index++) {
    const subject = randomUUID();
    const text = `personal value ${index} of ${subject}`;
    sealed.push({ subject, value: (await vault.seal(TEAM, subject, text))!, text });
  }
  return sealed;
}

describe('an older database with plain data keys', () => {
  it('has them sealed with the KEK at the start, in batches, once; every value still opens', async () => {
    const ring = parseKeyRing(`old:${KEY_OLD}`);
    const sealed = await sealSubjects(new PersonalDataVault(database.pool, { keyRing: ring }), 5);
    const subjects = sealed.map((entry) => entry.subject);
    // As the table was before KEKs: the plain 32-byte key, no KEK id.
    for (const row of await storedKeys(subjects)) {
      const plain = unwrapDataKey(ring, row.subject_id, { key: row.key!, kekId: row.kek_id });
      await database.pool.query(
        'update personal_data_keys set key = $2, kek_id = null where subject_id = $1',
        [row.subject_id, plain],
      );
    }
    expect((await storedKeys(subjects)).every((row) => row.key!.length === 32 && row.kek_id === null)).toBe(
      true,
    );

    // Batches walk the table: 5 keys in batches of 2 take three batches.
    const batches: number[] = [];
    const first = await rewrapDataKeys(database.pool, ring, {
      plainOnly: true,
      batchSize: 2,
      onBatch: (progress) => batches.push(progress.rewrapped),
    });
    expect(first.rewrapped).toBeGreaterThanOrEqual(5);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect((await storedKeys(subjects)).every((row) => row.key!.length === 60 && row.kek_id === 'old')).toBe(
      true,
    );
    expect((await rewrapDataKeys(database.pool, ring, { plainOnly: true })).rewrapped).toBe(0);

    const vault = new PersonalDataVault(database.pool, { keyRing: ring });
    for (const entry of sealed) expect(await vault.open(entry.value)).toBe(entry.text);
    expect(
      await openSealed(
        database.pool,
        sealed.map((entry) => entry.value),
        ring,
      ),
    ).toEqual(sealed.map((entry) => entry.text));
  });

  it('the service start seals them (createContext)', async () => {
    const ring = parseKeyRing(`old:${KEY_OLD}`);
    const [entry] = await sealSubjects(new PersonalDataVault(database.pool, { keyRing: ring }), 1);
    const [row] = await storedKeys([entry!.subject]);
    const plain = unwrapDataKey(ring, row!.subject_id, { key: row!.key!, kekId: row!.kek_id });
    await database.pool.query('update personal_data_keys set key = $2, kek_id = null where subject_id = $1', [
      entry!.subject,
      plain,
    ]);

    const settings = loadSettings({
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      PERSONAL_DATA_KEK: `old:${KEY_OLD}`,
    });
    const context = await createContext(
      settings,
      createLogger('silent'),
      createPool(database.url, 4),
      database.url,
    );
    try {
      const [after] = await storedKeys([entry!.subject]);
      expect(after!.kek_id).toBe('old');
      expect(after!.key!.includes(plain)).toBe(false);
      expect(await context.vault.open(entry!.value)).toBe(entry!.text);
    } finally {
      await stopContext(context);
    }
  });
});

describe('rotating the KEK', () => {
  it('re-wraps every key while keys are made; then the old KEK is dropped and everything still opens', async () => {
    const oldRing = parseKeyRing(`old:${KEY_OLD}`);
    const before = await sealSubjects(new PersonalDataVault(database.pool, { keyRing: oldRing }), 7);
    const erased = before[0]!;
    await new PersonalDataVault(database.pool, { keyRing: oldRing }).erase(erased.subject);

    // Step 1 of a rotation: the new KEK first, the old one still listed (every instance).
    const bothRing = parseKeyRing(`new:${KEY_NEW},old:${KEY_OLD}`);
    const serving = new PersonalDataVault(database.pool, { keyRing: bothRing });
    const [rotated, during] = await Promise.all([
      rewrapDataKeys(database.pool, bothRing, { batchSize: 3 }),
      sealSubjects(serving, 5),
    ]);
    expect(rotated.rewrapped).toBeGreaterThanOrEqual(6);
    const subjects = [...before, ...during].map((entry) => entry.subject);
    const rows = await storedKeys(subjects);
    expect(rows.filter((row) => row.key !== null).every((row) => row.kek_id === 'new')).toBe(true);
    expect(rows.find((row) => row.subject_id === erased.subject)).toMatchObject({ key: null, kek_id: null });

    // Step 2: the old KEK dropped from the setting.
    const newRing = parseKeyRing(`new:${KEY_NEW}`);
    const vault = new PersonalDataVault(database.pool, { keyRing: newRing });
    for (const entry of [...before.slice(1), ...during])
      expect(await vault.open(entry.value)).toBe(entry.text);
    expect(await vault.open(erased.value)).toBeNull();
  });

  it('a key sealed by a KEK the setting no longer lists is a clear error, not garbage', async () => {
    const [entry] = await sealSubjects(
      new PersonalDataVault(database.pool, { keyRing: parseKeyRing(`old:${KEY_OLD}`) }),
      1,
    );
    const vault = new PersonalDataVault(database.pool, { keyRing: parseKeyRing(`new:${KEY_NEW}`) });
    await expect(vault.open(entry!.value)).rejects.toThrow(
      new KeyEncryptionKeyError(
        `the personal-data key of ${entry!.subject} is sealed by the key-encryption key "old", which PERSONAL_DATA_KEK does not list`,
      ),
    );
    await expect(openSealed(database.pool, [entry!.value], parseKeyRing(`new:${KEY_NEW}`))).rejects.toThrow(
      KeyEncryptionKeyError,
    );
    // A rotation with such a setting stops with the same error.
    await expect(rewrapDataKeys(database.pool, parseKeyRing(`new:${KEY_NEW}`))).rejects.toThrow(
      'which PERSONAL_DATA_KEK does not list',
    );
  });

  it('npm run kek:rotate re-wraps with the first KEK of the setting and prints counts, never a key', async () => {
    const [entry] = await sealSubjects(
      new PersonalDataVault(database.pool, { keyRing: parseKeyRing(`old:${KEY_OLD}`) }),
      1,
    );
    const { stderr } = await promisify(execFile)('npx', ['tsx', 'services/app/cli/kek-rotate-cli.ts'], {
      env: { ...process.env, DATABASE_URL: database.url, PERSONAL_DATA_KEK: `new:${KEY_NEW},old:${KEY_OLD}` },
    });
    expect(stderr).toContain('sealing every personal-data key with the key-encryption key "new"');
    expect(stderr).toMatch(/done: [1-9]\d* keys re-wrapped; every key is sealed by "new"/);
    for (const key of [KEY_OLD, KEY_NEW]) expect(stderr).not.toContain(key);
    const [row] = await storedKeys([entry!.subject]);
    expect(row!.kek_id).toBe('new');
    const vault = new PersonalDataVault(database.pool, { keyRing: parseKeyRing(`new:${KEY_NEW}`) });
    expect(await vault.open(entry!.value)).toBe(entry!.text);
  });
});
