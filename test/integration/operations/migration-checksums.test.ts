import { appendFile, cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  migrate,
  migrationChecksum,
  MIGRATIONS_DIR,
  MigrationChangedError,
} from '../../../shared/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

/**
 * Each applied migration keeps the sha256 of its file; an applied migration whose file
 * changed stops the start with a message naming the file, and rows from before checksums
 * were kept get them on the first run.
 */
let db: TestDatabase;
let dir: string;
beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
});
afterAll(async () => {
  await db.drop();
  await rm(dir, { recursive: true, force: true });
});

async function checksums(): Promise<Map<string, string | null>> {
  const { rows } = await db.pool.query<{ name: string; checksum: string | null }>(
    'select name, checksum from schema_migrations',
  );
  return new Map(rows.map((row) => [row.name, row.checksum]));
}

describe('migration checksums', () => {
  it('records the sha256 of every applied file', async () => {
    expect(await migrate(db.pool, dir)).toEqual([]);
    const files = (await readdir(dir)).filter((file) => file.endsWith('.sql'));
    const recorded = await checksums();
    expect(recorded.size).toBe(files.length);
    expect(recorded.get(files[0]!)).toBe(
      migrationChecksum(await readFile(path.join(dir, files[0]!), 'utf8')),
    );
  });

  it('records checksums for a database from before they were kept', async () => {
    const before = await checksums();
    await db.pool.query('update schema_migrations set checksum = null');
    await migrate(db.pool, dir);
    expect(await checksums()).toEqual(before);
  });

  it('refuses an applied migration whose file was edited, naming it, and applies nothing', async () => {
    const first = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort()[0]!;
    await appendFile(
      path.join(dir, '999_new_table.sql'),
      'create table migration_checksum_probe (id int);\n',
    );
    await appendFile(path.join(dir, first), '\n-- edited after it was applied\n');
    const refused = migrate(db.pool, dir);
    await expect(refused).rejects.toBeInstanceOf(MigrationChangedError);
    await expect(refused).rejects.toThrow(
      `Migration ${first} was changed after it was applied: restore the file as it was and put the change in a new migration`,
    );
    const probe = await db.pool.query("select to_regclass('migration_checksum_probe') as found");
    expect(probe.rows[0].found).toBeNull();
  });

  it('does not count CRLF line endings as an edit', () => {
    expect(migrationChecksum('create table a (id int);\r\nselect 1;\r\n')).toBe(
      migrationChecksum('create table a (id int);\nselect 1;\n'),
    );
  });
});
