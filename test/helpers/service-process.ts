import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_PERSONAL_DATA_KEK } from './service.ts';
import { freePort } from './free-port.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(ROOT, 'services/app/main.ts');

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Ends it at once, as a crash or the OOM killer would: no stop, no last checkpoint. */
  kill(): Promise<void>;
  /** An orderly stop (SIGTERM), as a deployment does. */
  stop(): Promise<void>;
  /** What it wrote to stdout and stderr (for a failing test's message). */
  output(): string;
}

/**
 * The service's own entry point (services/app/main.ts) as a child process with `env` added,
 * on a free loopback port; resolves once GET /healthz answers. Killed with SIGKILL when
 * this process exits.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PERSONAL_DATA_KEK: TEST_PERSONAL_DATA_KEK,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const ended = async (signal: NodeJS.Signals) => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await exited;
    }
  };
  for (const deadline = Date.now() + 30_000; ;) {
    if (child.exitCode !== null) throw new Error(`service exited (${child.exitCode}):\n${output.join('')}`);
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      await ended('SIGKILL');
      throw new Error(`service did not start:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    kill: () => ended('SIGKILL'),
    stop: () => ended('SIGTERM'),
    output: () => output.join(''),
  };
}
