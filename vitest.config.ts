import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/**/*.test.ts',
      'shared/**/*.test.ts',
      'services/**/*.test.ts',
      'projections/**/*.test.ts',
    ],
    // End-to-end tests start `npm start` as a process; they run first, alone (test/e2e/vitest.config.ts).
    exclude: ['test/containers/**', 'test/e2e/**', 'node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on PostgreSQL, Kafka, Chromium or child processes: two at a time keep two
    // cores busy (vitest's default, cores - 1, runs one file at a time on these 2-core machines).
    maxWorkers: 2,
  },
});
