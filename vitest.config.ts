import { defineConfig } from 'vitest/config';

const ALL = [
  'test/**/*.test.ts',
  'services/**/*.db.test.ts',
  'shared/**/*.db.test.ts',
  'projections/**/*.db.test.ts',
];
// End-to-end tests start `npm start` as a process; they run first, alone (test/e2e/vitest.config.ts).
// Tests without I/O run in a run of their own, two files at a time (test/unit/vitest.config.ts).
const OTHER_RUNS = ['test/containers/**', 'test/e2e/**', 'test/unit/**', 'node_modules/**'];

/**
 * Files that run in a process of their own (isolate: true): Schemathesis, the payment tests
 * and the template builder's browser test (new or changing in other work; they move to the
 * shared process once they have run green there). Every other file runs in one shared
 * process, one after the other (isolate: false): the service's modules are imported and
 * evaluated once for all of them instead of once per file
 * (docs/decisions/0010-test-run-time.md). A file that changes what a later one would see (a
 * module mock, a global, a module-level list, a process setting) belongs here.
 */
const OWN_PROCESS = [
  'test/schemathesis/**/*.test.ts',
  'test/browser/payment.test.ts',
  'test/browser/workspace-payment*.test.ts',
  'test/browser/workspace-template-builder.test.ts',
  'test/integration/payments/**/*.test.ts',
  'test/integration/access/stripe-connect.test.ts',
  'test/integration/portal/portal-checkout.test.ts',
  'test/integration/onboardings/workspace-payments.test.ts',
  // They add test routes to the public API's route list (test/helpers/public-test-routes.ts),
  // which would then show in every later file's service and document.
  'test/integration/access/public-api-authentication.test.ts',
  'test/integration/http/public-api-errors.test.ts',
];

const runOptions = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  // One file at a time (vitest's default on 2 cores, made explicit): the test files share one
  // PostgreSQL cluster, and a transaction held open in one file's database holds back the
  // global log's visibility horizon (the cluster-wide snapshot xmin) of every other file's.
  maxWorkers: 1,
};

export default defineConfig({
  test: {
    // Once for both projects: their files see what it provides (inject).
    globalSetup: ['test/helpers/global-setup.ts'],
    maxWorkers: 1,
    projects: [
      {
        test: {
          ...runOptions,
          name: 'shared-process',
          include: ALL,
          exclude: [...OTHER_RUNS, ...OWN_PROCESS],
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...runOptions,
          name: 'own-process',
          include: OWN_PROCESS,
          exclude: OTHER_RUNS,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
