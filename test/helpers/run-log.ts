import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { createLogger, type Logger } from '../../shared/logging/logger.ts';

/**
 * The whole test run's service log, searched for secrets at the end. Every test service
 * that is not given its own logger logs at info level into test-output/run-log/ (one file
 * per test process), and the fixtures register the secrets they create or are handed (API
 * keys, client tokens, passwords, session ids, CSRF tokens, invitation tokens) in the same
 * folder. The global teardown (./global-setup.ts) fails the run when a log holds any of
 * them, as written or URL-encoded.
 */

// TEST_RUN_LOG_DIR lets several test runs on one checkout keep logs of their own.
export const RUN_LOG_DIR = path.resolve(process.env.TEST_RUN_LOG_DIR ?? 'test-output/run-log');
const LOG_PREFIX = 'service-';
const SECRETS_PREFIX = 'secrets-';

/** Empties the folder at the start of a run. */
export function resetRunLog(): void {
  rmSync(RUN_LOG_DIR, { recursive: true, force: true });
  mkdirSync(RUN_LOG_DIR, { recursive: true });
}

let shared: Logger | undefined;

/** This process's logger into the run log (synchronous writes: nothing is lost at exit). */
export function runLogger(): Logger {
  mkdirSync(RUN_LOG_DIR, { recursive: true });
  shared ??= createLogger(
    'info',
    pino.destination({ dest: path.join(RUN_LOG_DIR, `${LOG_PREFIX}${process.pid}.log`), sync: true }),
  );
  return shared;
}

/** Records secrets a test made or used, for the end-of-run search. */
export function registerSecrets(...values: Array<string | undefined | null>): void {
  const kept = values.filter((value): value is string => typeof value === 'string' && value.length >= 8);
  if (kept.length === 0) return;
  mkdirSync(RUN_LOG_DIR, { recursive: true });
  appendFileSync(
    path.join(RUN_LOG_DIR, `${SECRETS_PREFIX}${process.pid}.txt`),
    kept.map((value) => `${JSON.stringify(value)}\n`).join(''),
  );
}

/** Every registered secret found in the run's service logs: `<log file>: <first characters>…`. */
export function secretsInRunLog(): string[] {
  const files = readdirSync(RUN_LOG_DIR, { withFileTypes: true }).filter((entry) => entry.isFile());
  const read = (prefix: string) =>
    files
      .filter((entry) => entry.name.startsWith(prefix))
      .map((entry) => ({ name: entry.name, text: readFileSync(path.join(RUN_LOG_DIR, entry.name), 'utf8') }));
  const secrets = new Set(
    read(SECRETS_PREFIX).flatMap(({ text }) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string),
    ),
  );
  const logs = read(LOG_PREFIX);
  const found: string[] = [];
  for (const secret of secrets) {
    const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
    for (const log of logs) {
      if ([...forms].some((form) => log.text.includes(form))) {
        found.push(`${log.name}: ${secret.slice(0, 6)}…`);
      }
    }
  }
  return found;
}
