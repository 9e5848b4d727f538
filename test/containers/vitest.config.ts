import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:containers`: the same suites against real EventStoreDB, Kafka and PostgreSQL
 * in containers. Kept apart from `npm test` (which needs no Docker); without a Docker engine
 * every file here is skipped and the global setup says why.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/containers/**/*.test.ts'],
    globalSetup: ['test/containers/global-setup.ts'],
    // Image pulls and broker start-up are slow; the tests themselves are not.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
