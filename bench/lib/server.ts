import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../shared/db/embedded-postgres.ts';
import { migrate } from '../../shared/db/migrate.ts';
import { createPool, withDatabase, type Pool } from '../../shared/db/pool.ts';

/** Scratch space of the bench (git- and lint-ignored). */
export const WORK_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.work');

export interface BenchServer {
  /** URL of the server's maintenance database. */
  url: string;
  /** Creates an empty database (optionally migrated with the project's migrations). */
  createDatabase(name: string, options?: { migrated?: boolean }): Promise<string>;
  stop(): Promise<void>;
}

/**
 * One embedded PostgreSQL for the whole bench, with its default durability settings
 * (fsync and synchronous_commit on, unlike the test suite), on the same disk as the repo.
 * Every part works in its own database on this one server.
 */
export async function startBenchServer(log?: (line: string) => void): Promise<BenchServer> {
  await mkdir(WORK_DIR, { recursive: true });
  const dataDir = await mkdtemp(path.join(WORK_DIR, 'pg-'));
  const database = await startEmbeddedPostgres({
    dataDir,
    persistent: false,
    onLog: (message) => log?.(String(message)),
  });
  return {
    url: database.url,
    async createDatabase(name, options = {}) {
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.query(`create database ${name}`);
      } finally {
        await admin.end();
      }
      const url = withDatabase(database.url, name);
      if (options.migrated) {
        const pool: Pool = createPool(url, 1);
        try {
          await migrate(pool);
        } finally {
          await pool.end();
        }
      }
      return url;
    },
    async stop() {
      await database.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server's settings that decide the figures, for the report. */
export async function serverSettings(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const names = [
      'server_version',
      'fsync',
      'synchronous_commit',
      'shared_buffers',
      'wal_level',
      'max_connections',
    ];
    const result = await client.query<{ name: string; setting: string; unit: string | null }>(
      'select name, setting, unit from pg_settings where name = any($1)',
      [names],
    );
    const settings: Record<string, string> = {};
    for (const row of result.rows) {
      settings[row.name] =
        row.name === 'shared_buffers' ? `${(Number(row.setting) * 8) / 1024} MB` : row.setting;
    }
    return settings;
  } finally {
    await client.end();
  }
}
