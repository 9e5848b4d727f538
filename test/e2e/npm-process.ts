import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Running `npm start` and `npm run ...` as a user does, for the end-to-end tests. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

/** Process groups of the commands started (each runs in its own group). */
export const groups: number[] = [];

export function killGroup(group: number) {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // nothing left in it
  }
}

/**
 * The PATH of the user's shell: without the node_modules/.bin folders npm puts first for the
 * test run, so `npm` and `node` are the machine's own (Node.js 20 on the CI machine) and the
 * pinned Node.js comes only from npm's own scripts.
 */
export const userPath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter(
    (folder) =>
      !folder.split(path.sep).includes('node_modules') && !folder.includes(`${path.sep}node-gyp-bin`),
  )
  .join(path.delimiter);

/** The machine's own `node` (first on the user's PATH), undefined when it has none. */
export function systemNode(): string | undefined {
  for (const folder of userPath.split(path.delimiter)) {
    const candidate = path.join(folder, 'node');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The environment of a user with none of the service's settings. */
export function userEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: userPath };
  for (const name of [
    'DATABASE_URL',
    'PERSONAL_DATA_KEK',
    'EVENTSTORE_URL',
    'KAFKA_BROKERS',
    'SMTP_URL',
    'ADMIN_TOKEN',
    'PUBLIC_URL',
    'TEST_CLOCK',
    'HOST',
    'PORT',
    'DATA_DIR',
    'LOG_LEVEL',
    'HOOK_TARGET_ALLOWLIST',
    'RATE_LIMITS',
  ]) {
    delete env[name];
  }
  return { ...env, ...overrides };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function npm(args: string[], env: NodeJS.ProcessEnv): Omit<Started, 'url'> {
  // Its own process group: signals go to npm's pid only (as `kill <pid>` does), and the
  // test can still find and end everything it started.
  const child = spawn('npm', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.push(child.pid!);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/**
 * `npm start` without its `prestart` script. That script (npm run build:web) builds the web
 * apps, the same files every time; the end-to-end run builds them once (./web-build.ts), so
 * most starts skip the repeat with --ignore-scripts: npm then runs the start script alone,
 * through the same npm, sh and `exec tsx` chain, so signals and exit codes are a user's.
 * start-stop.test.ts keeps one plain `npm start`, build included, for the 30-second budget.
 */
export const START_WITHOUT_BUILD = ['start', '--ignore-scripts'];

/**
 * `npm start` until GET /healthz answers 200; fails after `budgetSeconds`. `withBuild` runs
 * it exactly as a user types it, `prestart` included.
 */
export async function npmStart(
  dataDir: string,
  overrides: Record<string, string> = {},
  budgetSeconds = 30,
  { withBuild = false }: { withBuild?: boolean } = {},
): Promise<Started & { secondsToHealthy: number }> {
  const port = await freePort();
  const started = npm(
    withBuild ? ['start'] : START_WITHOUT_BUILD,
    userEnv({ DATA_DIR: dataDir, PORT: String(port), ...overrides }),
  );
  const url = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  let exitedEarly = false;
  void started.exited.then(() => (exitedEarly = true));
  for (;;) {
    if (exitedEarly) throw new Error(`npm start exited early:\n${started.output()}`);
    const seconds = (performance.now() - startedAt) / 1000;
    if (seconds > budgetSeconds) {
      killGroup(started.child.pid!);
      throw new Error(`GET /healthz did not answer within ${budgetSeconds} seconds:\n${started.output()}`);
    }
    const healthy = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) return { ...started, url, secondsToHealthy: seconds };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Processes whose command line names `folder` (postgres runs with -D <DATA_DIR>/postgres),
 * or that belong to process group `group`, as "pid command".
 */
export async function processesUsing(folder: string, group?: number): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,pgid=,args=']);
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, pgid, ...args]) => {
      if (!pid || Number(pid) === process.pid) return false;
      return args.join(' ').includes(folder) || (group !== undefined && Number(pgid) === group);
    })
    .map(([pid, , ...args]) => `${pid} ${args.join(' ')}`);
}

/** The parent PID of `pid` (from /proc), undefined when it is gone. */
export async function parentPid(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs (a zombie, exited but not yet reaped by its new parent, does not). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until `check` holds, polling; false after `timeoutMs`. */
export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
