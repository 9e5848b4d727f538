import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pool } from './pool.ts';
import { inTransaction } from './pool.ts';

export const MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../infra/migrations',
);

/** Serialises starting processes: one migrates (and checks) at a time. */
const MIGRATION_LOCK = 727274;

/** An applied migration whose file has changed since: the start stops (services/app/startup-failure.ts). */
export class MigrationChangedError extends Error {
  constructor(readonly file: string) {
    super(
      `Migration ${file} was changed after it was applied: restore the file as it was and put the change in a new migration`,
    );
    this.name = 'MigrationChangedError';
  }
}

/**
 * The sha256 of a migration's text. Line endings count as LF, so a checkout that turns them
 * into CRLF (git autocrlf) is not an edit.
 */
export function migrationChecksum(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex');
}

/**
 * Forward-only migrations: every `NNN_name.sql` under infra/migrations runs once, in name
 * order, each in its own transaction together with its bookkeeping row, which records the
 * file's checksum. An applied migration whose file no longer has its recorded checksum
 * stops the start (MigrationChangedError) before anything else runs; a row from before
 * checksums were kept gets the file's current checksum on the first run. An advisory lock
 * keeps two starting processes apart.
 */
export async function migrate(pool: Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((file) => /^\d+_.+\.sql$/.test(file)).sort();
  const texts = new Map<string, string>();
  for (const file of files) texts.set(file, await readFile(path.join(dir, file), 'utf8'));
  await pool.query(
    'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
  );
  await pool.query('alter table schema_migrations add column if not exists checksum text');
  await inTransaction(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const rows = await client.query<{ name: string; checksum: string | null }>(
      'select name, checksum from schema_migrations order by name',
    );
    for (const row of rows.rows) {
      const text = texts.get(row.name);
      if (text === undefined) continue; // a file removed from the folder runs no more; nothing to compare
      const checksum = migrationChecksum(text);
      if (row.checksum === null) {
        await client.query('update schema_migrations set checksum = $2 where name = $1', [
          row.name,
          checksum,
        ]);
      } else if (row.checksum !== checksum) {
        throw new MigrationChangedError(row.name);
      }
    }
  });
  const applied: string[] = [];
  for (const file of files) {
    const text = texts.get(file)!;
    const ran = await inTransaction(pool, async (client) => {
      await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const done = await client.query('select 1 from schema_migrations where name = $1', [file]);
      if (done.rowCount) return false;
      await client.query(text);
      await client.query('insert into schema_migrations (name, checksum) values ($1, $2)', [
        file,
        migrationChecksum(text),
      ]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return applied;
}
