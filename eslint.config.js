import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The joints of the layout (docs/decisions/0002-composition-in-one-place.md), kept by
 * no-restricted-imports. A rule sees the import as written, so each rule is stated per
 * folder depth below services/: `up(d)` is the `../` that leaves a file d folders deep.
 * - shared/ imports no feature (nothing of services/ or projections/);
 * - a feature imports another feature only through its index.ts or its contract/ folder
 *   (services/app/, the composition, too);
 * - the web apps import of the server only contract/ files, shared/i18n/locales.ts and
 *   shared/i18n/human-date.ts (pure: dates as people read them).
 */
const FEATURES = [
  'access',
  'clients',
  'templates',
  'onboardings',
  'hooks',
  'automation',
  'events',
  'mail',
  'payments',
];
const DEPTHS = [1, 2, 3, 4, 5, 6, 7];
const up = (depth) => `(\\.\\./){${depth}}`;
const underServices = (top, depth) => `services/${top}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`;

/** Files of shared/ `depth` folders below the repository's root import nothing of services/ or projections/. */
const sharedRule = (depth) => ({
  files: [`shared/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
  ignores: ['**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^${up(depth)}(services|projections)/`,
            message: 'shared/ is the platform: it imports no feature (services/*, projections/*).',
          },
        ],
      },
    ],
  },
});

/** Files of `top` (a feature or app) `depth` folders below services/ reach other features only by index.ts or contract/. */
const featureRule = (top, depth) => ({
  files: [underServices(top, depth)],
  ignores: ['**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^${up(depth)}(${FEATURES.filter((feature) => feature !== top).join('|')})/(?!index\\.ts$|contract/)`,
            message: 'Import another feature only through its index.ts or its contract/ folder.',
          },
        ],
      },
    ],
  },
});

/** Web files `depth` folders below services/ import of the server only contract/ files and the locales. */
const webRule = (depth) => ({
  files: [`services/web/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^${up(depth)}(?!web/|\\.\\./|[a-z-]+/contract/)`,
            message: 'The web apps import of the server only contract/ files.',
          },
          {
            regex: `^${up(depth + 1)}(?!\\.\\./|shared/i18n/(?:locales|human-date)\\.ts$)`,
            message:
              'The web apps import of the server only contract/ files, shared/i18n/locales.ts and shared/i18n/human-date.ts.',
          },
        ],
      },
    ],
  },
});

export const boundaryRules = [
  ...DEPTHS.map(sharedRule),
  ...[...FEATURES, 'app'].flatMap((top) => DEPTHS.map((depth) => featureRule(top, depth))),
  ...DEPTHS.slice(1).map(webRule),
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'services/web/shared/api/openapi.d.ts',
      '.data',
      'coverage',
      'bench/.work',
      '.venv-schemathesis',
      'services/web/client-form/dist',
      'services/web/workspace/dist',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  ...boundaryRules,
  {
    // Small files with one job: no production file over 600 lines, no function over 120.
    files: [
      'services/**/*.{ts,tsx}',
      'shared/**/*.{ts,tsx}',
      'projections/**/*.{ts,tsx}',
      'infra/**/*.{ts,tsx}',
    ],
    ignores: ['**/*.test.{ts,tsx}', '**/test-fixtures.ts'],
    rules: {
      'max-lines': ['error', { max: 600 }],
      'max-lines-per-function': ['error', { max: 120 }],
    },
  },
);
