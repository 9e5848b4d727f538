import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Finding a PostgreSQL server by its data directory, through /proc (Linux). A PID alone
 * proves nothing (a killed server's PID may belong to another program by now), so a
 * process counts as the postmaster of `databaseDir` only when its command line is
 * `postgres ... -D <databaseDir> ...`.
 */

/** The command line of `pid`, or undefined when there is no such process (or no /proc). */
async function commandLine(pid: number): Promise<string[] | undefined> {
  try {
    const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').filter((part) => part !== '');
  } catch {
    return undefined;
  }
}

export async function isPostmasterOf(pid: number, databaseDir: string): Promise<boolean> {
  const args = await commandLine(pid);
  if (!args || args.length === 0) return false;
  const dataDirIndex = args.indexOf('-D');
  return (
    path.basename(args[0]!) === 'postgres' &&
    dataDirIndex >= 0 &&
    path.resolve(args[dataDirIndex + 1] ?? '') === path.resolve(databaseDir)
  );
}

/** The PID that `<databaseDir>/postmaster.pid` names, if the file is there. */
export async function lockFilePid(databaseDir: string): Promise<number | undefined> {
  try {
    const first = (await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0];
    const pid = Number(first?.trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves true once `pid` is no longer the postmaster of `databaseDir`, false after `timeoutMs`. */
export async function waitForExit(pid: number, databaseDir: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await isPostmasterOf(pid, databaseDir)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone meanwhile
  }
}

/**
 * Stops a postmaster that a killed run left on `databaseDir` (its lock file would make
 * the new one refuse to start): a fast shutdown (SIGINT: sessions are ended, the data is
 * written out cleanly), then an immediate one (SIGQUIT: recovery at the next start),
 * then SIGKILL. Resolves to the PID it stopped, or undefined when none was running.
 */
export async function stopStalePostmaster(databaseDir: string): Promise<number | undefined> {
  const pid = await lockFilePid(databaseDir);
  if (pid === undefined || pid === process.pid || !(await isPostmasterOf(pid, databaseDir))) return undefined;
  for (const [name, waitMs] of [
    ['SIGINT', 10_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    signal(pid, name);
    if (await waitForExit(pid, databaseDir, waitMs)) return pid;
  }
  throw new Error(`PostgreSQL (pid ${pid}) left running on ${databaseDir} does not stop`);
}
