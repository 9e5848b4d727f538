import { defineConfig } from 'vitest/config';

/**
 * Tests without I/O (deciders, policies, pure modules: services/, shared/, projections/ and
 * test/unit/): they touch no database, broker or browser, so two files run at a time and
 * they need neither the test PostgreSQL nor the Kafka broker of the main run. A test beside
 * its code that needs the test database is named `*.db.test.ts` and runs in the main run.
 */
export default defineConfig({
  test: {
    include: [
      'services/**/*.test.ts',
      'shared/**/*.test.ts',
      'projections/**/*.test.ts',
      'test/unit/**/*.test.ts',
    ],
    exclude: ['**/*.db.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
