import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = path.join(ROOT, 'test/helpers/kafka-worker-process.ts');

export interface KafkaWorker {
  pid: number;
  /** Ends it at once, as a crash or the OOM killer would: no stop, no last checkpoint. */
  kill(): Promise<void>;
  /** Everything it wrote to stderr (for a failing test's message). */
  errors(): string;
}

/**
 * Starts test/helpers/kafka-worker-process.ts (`relay` or `consumers`) as a child process
 * with `env` added; resolves once it says it is running. Killed with SIGKILL when this
 * process exits.
 */
export async function startKafkaWorker(
  mode: 'relay' | 'consumers',
  env: Record<string, string>,
): Promise<KafkaWorker> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SCRIPT, mode], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${mode} process did not start:\n${stderr.join('')}`)),
      30_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('started')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${mode} process exited (${code}):\n${stderr.join('')}`));
    });
  });
  return {
    pid: child.pid!,
    async kill() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    errors: () => stderr.join(''),
  };
}
