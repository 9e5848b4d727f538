import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createPool, withDatabase, type Pool } from '../../shared/db/pool.ts';

export interface TestDatabase {
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file (a copy of the run's template database). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = createPool(serverUrl, 1);
  try {
    // CREATE DATABASE ... TEMPLATE needs the template to have no other sessions: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template onboarding_template`);
        break;
      } catch (error) {
        if (attempt > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pool = createPool(url, 20);
  return {
    url,
    pool,
    async drop() {
      if (!pool.ending) await pool.end();
      const cleanup = createPool(serverUrl, 1);
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
