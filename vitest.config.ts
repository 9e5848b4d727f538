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
  },
});
