import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests run `npm start` as a real process. They run on their own, before the
 * rest of the suite, so the 30-second start budget is measured on a machine that is not
 * also running hundreds of other tests.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    // The web apps, built once for every `npm start` of the run (test/e2e/web-build.ts).
    globalSetup: ['test/e2e/web-build.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
