import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Settings } from '../config/settings.ts';
import { generateKeyEncryptionKey, parseKeyRing, type KeyRing } from './key-encryption-key.ts';

/** The KEK the embedded database's default set-up generates and keeps beside its data. */
export const LOCAL_KEK_FILE = 'personal-data-kek';

/** PERSONAL_DATA_KEK is unset while the database is an external one (DATABASE_URL). */
export class KekRequiredError extends Error {
  constructor() {
    super(
      'PERSONAL_DATA_KEK is not set; with DATABASE_URL the key that seals the personal-data keys must come from outside the database: set PERSONAL_DATA_KEK to the output of `openssl rand -base64 32`, kept in your secret store',
    );
  }
}

/**
 * The KEKs of this process: PERSONAL_DATA_KEK when set. Unset with the embedded database:
 * the key in `<DATA_DIR>/personal-data-kek`, generated there (mode 0600) on the first start,
 * with a warning to keep it elsewhere in production. Unset with DATABASE_URL: refused, since
 * a key generated next to the process would be lost with it, or kept where backups take it.
 */
export async function resolveKeyRing(
  settings: Pick<Settings, 'PERSONAL_DATA_KEK' | 'DATABASE_URL' | 'DATA_DIR'>,
  logger: { warn(fields: { file: string }, message: string): void },
): Promise<KeyRing> {
  if (settings.PERSONAL_DATA_KEK) return settings.PERSONAL_DATA_KEK;
  if (settings.DATABASE_URL) throw new KekRequiredError();
  const file = join(settings.DATA_DIR, LOCAL_KEK_FILE);
  let stored: string | undefined;
  try {
    stored = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
  if (stored === undefined) {
    await mkdir(settings.DATA_DIR, { recursive: true });
    stored = generateKeyEncryptionKey();
    // 'wx': two first starts at once never overwrite each other's key.
    await writeFile(file, `${stored}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: unknown) => {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      stored = (await readFile(file, 'utf8')).trim();
    });
    logger.warn(
      { file },
      'PERSONAL_DATA_KEK is not set: generated a key-encryption key into the data directory; in production set PERSONAL_DATA_KEK from a secret store and keep the key away from the database and its backups',
    );
  } else {
    await chmod(file, 0o600);
    logger.warn(
      { file },
      'PERSONAL_DATA_KEK is not set: using the key-encryption key kept in the data directory; in production set PERSONAL_DATA_KEK from a secret store',
    );
  }
  return parseKeyRing(stored);
}
