/**
 * Schemathesis (Python, from PyPI; test/schemathesis/setup.sh installs it) generates
 * requests for every operation of GET /openapi.json (public API, operator API and client
 * portal) against the service over real HTTP, with a fixed seed and a bounded number of
 * examples per operation, and checks that no answer is a server error and that every
 * answer's status code, content type and body are the ones the document gives. The
 * document is generated from the route schemas, so this keeps the routes and their
 * documentation honest together.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { seedKnownIds } from './known-ids.ts';
import { MISSING_SCHEMATHESIS, runSchemathesis, schemathesisInstalled } from './run-schemathesis.ts';
import { ADMIN_TOKEN_VARIABLE, API_KEY_VARIABLE, schemathesisConfig } from './schemathesis-config.ts';

const SEED = 20_260_101;
// 20 examples per operation keep the whole `npm test` inside its 30-minute budget on 2 cores.
const MAX_EXAMPLES = 20;
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
];
const RUN_TIMEOUT_MS = 240_000;

let service: TestService;
let workDir: string;
let apiKey: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'schemathesis-'));
  service = await startTestService({ RATE_LIMITS: 'off' });
  const seeded = await seedKnownIds(service);
  apiKey = seeded.apiKey;
  await writeFile(path.join(workDir, 'schemathesis.toml'), schemathesisConfig(seeded.ids));
});

afterAll(async () => {
  await service?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

it(
  'finds no server error and no answer that differs from GET /openapi.json',
  async () => {
    expect(schemathesisInstalled(), MISSING_SCHEMATHESIS).toBe(true);
    const run = await runSchemathesis(
      [
        '--config-file',
        path.join(workDir, 'schemathesis.toml'),
        'run',
        `${service.url}/openapi.json`,
        '--checks',
        CHECKS.join(','),
        '--seed',
        String(SEED),
        '--max-examples',
        String(MAX_EXAMPLES),
        // One worker: Python 3.11's ast module is not thread-safe, and hypothesis parses
        // source while describing strategies, which fails at random with several workers.
        '--workers',
        '1',
        // The longest operator route (work/drain) waits up to 30 seconds by design.
        '--request-timeout',
        '40',
        '--generation-database',
        'none',
        '--no-color',
      ],
      {
        cwd: workDir,
        env: { [ADMIN_TOKEN_VARIABLE]: ADMIN_TOKEN, [API_KEY_VARIABLE]: apiKey },
        timeoutMs: RUN_TIMEOUT_MS,
      },
    );
    expect(run.output).toContain('Seed: ');
    expect(run.exitCode, run.output).toBe(0);
  },
  RUN_TIMEOUT_MS + 30_000,
);
