import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/**/*.test.ts',
      'services/**/*.db.test.ts',
      'shared/**/*.db.test.ts',
      'projections/**/*.db.test.ts',
    ],
    // End-to-end tests start `npm start` as a process; they run first, alone (test/e2e/vitest.config.ts).
    // Tests without I/O run in a run of their own, two files at a time (test/unit/vitest.config.ts).
    exclude: ['test/containers/**', 'test/e2e/**', 'test/unit/**', 'node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One file at a time (vitest's default on 2 cores, made explicit): the test files share one
    // PostgreSQL cluster, and a transaction held open in one file's database holds back the
    // global log's visibility horizon (the cluster-wide snapshot xmin) of every other file's.
    maxWorkers: 1,
  },
});
