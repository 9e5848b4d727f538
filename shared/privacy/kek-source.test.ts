import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startupFailureLine } from '../../services/app/startup-failure.ts';
import { loadSettings } from '../config/settings.ts';
import { KekRequiredError, LOCAL_KEK_FILE, resolveKeyRing } from './kek-source.ts';
import { generateKeyEncryptionKey } from './key-encryption-key.ts';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

function capturingWarn() {
  const lines: string[] = [];
  return {
    lines,
    logger: { warn: (fields: object, message: string) => lines.push(JSON.stringify({ ...fields, message })) },
  };
}

describe('where the key-encryption key comes from', () => {
  it('PERSONAL_DATA_KEK when set, without a warning', async () => {
    const key = generateKeyEncryptionKey();
    const { lines, logger } = capturingWarn();
    const ring = await resolveKeyRing(
      loadSettings({ PERSONAL_DATA_KEK: `k1:${key}`, DATABASE_URL: 'postgres://db/x' }),
      logger,
    );
    expect(ring.current.id).toBe('k1');
    expect(lines).toEqual([]);
  });

  it('unset with the embedded database: generated once into DATA_DIR (0600), with a warning that holds no key', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'kek-')), 'data');
    folders.push(dataDir);
    const { lines, logger } = capturingWarn();
    const first = await resolveKeyRing(loadSettings({ DATA_DIR: dataDir }), logger);
    const file = join(dataDir, LOCAL_KEK_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = (await readFile(file, 'utf8')).trim();
    expect(Buffer.from(stored, 'base64').equals(first.current.key)).toBe(true);

    const second = await resolveKeyRing(loadSettings({ DATA_DIR: dataDir }), logger);
    expect(second.current.key.equals(first.current.key)).toBe(true);
    expect(second.current.id).toBe(first.current.id);

    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('generated a key-encryption key into the data directory');
    expect(lines[0]).toContain('in production set PERSONAL_DATA_KEK');
    for (const line of lines) {
      expect(line).not.toContain(stored);
      expect(line).not.toContain(first.current.key.toString('hex'));
    }
  });

  it('unset with DATABASE_URL: the start is refused with one line saying what to do', async () => {
    const settings = loadSettings({ DATABASE_URL: 'postgres://user:secret@db.example:5432/app' });
    const refusal = await resolveKeyRing(settings, capturingWarn().logger).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(KekRequiredError);
    const line = startupFailureLine(refusal, settings);
    expect(line).toBe(
      'Cannot start: PERSONAL_DATA_KEK is not set; with DATABASE_URL the key that seals the personal-data keys must come from outside the database: set PERSONAL_DATA_KEK to the output of `openssl rand -base64 32`, kept in your secret store',
    );
    expect(line).not.toContain('\n');
  });
});
