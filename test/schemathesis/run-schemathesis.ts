import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The venv test/schemathesis/setup.sh makes (ignored by git). */
export const SCHEMATHESIS_BIN = path.resolve(import.meta.dirname, '../../.venv-schemathesis/bin/st');

export const MISSING_SCHEMATHESIS = `Schemathesis is not installed (${SCHEMATHESIS_BIN} is missing): run test/schemathesis/setup.sh once (python3 and access to PyPI needed); .ci/run does this in CI.`;

export const schemathesisInstalled = () => existsSync(SCHEMATHESIS_BIN);

export interface SchemathesisRun {
  exitCode: number | null;
  /** stdout and stderr together, in order. */
  output: string;
}

/**
 * Runs `st` with `args` in `cwd` and collects its output. Asynchronous on purpose: the
 * service under test answers from this very process. Killed after `timeoutMs`.
 */
export function runSchemathesis(
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<SchemathesisRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(SCHEMATHESIS_BIN, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, NO_COLOR: '1', PYTHONUNBUFFERED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      output += `\n[schemathesis stopped after ${options.timeoutMs} ms]\n`;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}
