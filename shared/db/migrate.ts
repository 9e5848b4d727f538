import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pool } from './pool.ts';
import { inTransaction } from './pool.ts';

export const MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../infra/migrations',
);

/**
 * Forward-only migrations: every `NNN_name.sql` under infra/migrations runs once, in name
 * order, each in its own transaction together with its bookkeeping row. An advisory lock
 * keeps two starting processes apart.
 */
export async function migrate(pool: Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((file) => /^\d+_.+\.sql$/.test(file)).sort();
  await pool.query(
    'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
  );
  const applied: string[] = [];
  for (const file of files) {
    const ran = await inTransaction(pool, async (client) => {
      await client.query('select pg_advisory_xact_lock(727274)');
      const done = await client.query('select 1 from schema_migrations where name = $1', [file]);
      if (done.rowCount) return false;
      await client.query(await readFile(path.join(dir, file), 'utf8'));
      await client.query('insert into schema_migrations (name) values ($1)', [file]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return applied;
}
