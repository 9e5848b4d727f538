/**
 * `npm run kek:rotate`: seals every personal-data key with the current (first)
 * key-encryption key of PERSONAL_DATA_KEK, re-wrapping those sealed by the older ones the
 * setting lists, in batches, while the service runs. Afterwards the older keys can be
 * dropped from the setting. Safe to repeat; stopped half-way, the next run finishes.
 *
 * The database: DATABASE_URL when set, else the embedded PostgreSQL of a running
 * `npm start` on the same DATA_DIR (`<DATA_DIR>/database-url`). Prints counts only.
 */
import { loadCliSettings } from '../../../shared/cli/cli-settings.ts';
import { readEmbeddedDatabaseUrl } from '../../../shared/db/embedded-postgres.ts';
import { createPool } from '../../../shared/db/pool.ts';
import { KekRequiredError, resolveKeyRing } from '../../../shared/privacy/kek-source.ts';
import { KeyEncryptionKeyError } from '../../../shared/privacy/key-encryption-key.ts';
import { rewrapDataKeys } from '../../../shared/privacy/rewrap-data-keys.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  const settings = loadCliSettings(say);
  if (!settings) return 1;
  const url = settings.DATABASE_URL ?? (await readEmbeddedDatabaseUrl(settings.DATA_DIR));
  if (!url) {
    say(`no database: set DATABASE_URL, or start the service on DATA_DIR=${settings.DATA_DIR} first`);
    return 1;
  }
  let ring;
  try {
    ring = await resolveKeyRing(settings, { warn: (_fields, message) => say(message) });
  } catch (error) {
    if (!(error instanceof KekRequiredError)) throw error;
    say(error.message);
    return 1;
  }
  const pool = createPool(url, 2);
  try {
    say(`sealing every personal-data key with the key-encryption key "${ring.current.id}"`);
    const done = await rewrapDataKeys(pool, ring, {
      onBatch: (progress) => say(`  ${progress.rewrapped} keys re-wrapped`),
    });
    say(
      `done: ${done.rewrapped} keys re-wrapped; every key is sealed by "${ring.current.id}", ` +
        'the other keys of PERSONAL_DATA_KEK can be dropped once every instance runs with the new list',
    );
    return 0;
  } catch (error) {
    if (!(error instanceof KeyEncryptionKeyError)) throw error;
    say(`cannot rotate: ${error.message}`);
    return 1;
  } finally {
    await pool.end().catch(() => undefined);
  }
}

process.exitCode = await main();
