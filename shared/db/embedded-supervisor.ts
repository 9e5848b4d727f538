import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseHealth } from './database-health.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase, type EmbeddedOptions } from './embedded-postgres.ts';
import { isPostmasterOf, lockFilePid } from './postmaster-process.ts';
import { WakeableSleep } from '../runtime/wakeable-sleep.ts';

/**
 * The embedded PostgreSQL, supervised. When its postmaster exits without being asked to
 * (killed, crashed, out of memory), the database is marked down at once (./database-health.ts:
 * /readyz 503, requests 503 retryable) and started again on the same port, so the service's
 * pools, LISTEN connection and background loops reconnect by themselves:
 *
 * - up to RESTART_POLICY.attempts restarts, waiting RESTART_POLICY.backoffMs before each
 *   (1, 2, 4, 8, 15 s: about 30 s in all); a restart never creates a new empty cluster;
 * - a stale `postmaster.pid` naming a live process that is not a postgres is removed
 *   (PostgreSQL would refuse to start); one naming a dead process PostgreSQL replaces itself;
 *   one naming a postgres of this folder (a server started meanwhile) is stopped first;
 * - when no restart succeeds, or none has by RESTART_POLICY.giveUpAfterMs (60 s) after the
 *   loss, `onGiveUp` is called: the service process then exits non-zero, so that whatever
 *   supervises it (systemd, Docker, Kubernetes) starts it again.
 */

export const RESTART_POLICY = {
  attempts: 5,
  backoffMs: [1000, 2000, 4000, 8000, 15_000],
  giveUpAfterMs: 60_000,
} as const;

export interface SupervisorEvents {
  lost?: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void;
  restartFailed?: (attempt: number, error: unknown) => void;
  restarted?: (attempt: number, downMs: number) => void;
  /** No restart worked: the process should exit non-zero now. */
  gaveUp?: (reason: string) => void;
}

export interface SupervisedDatabase extends EmbeddedDatabase {
  health: DatabaseHealth;
  /**
   * From now on an exit is expected: no restart, no giving up. The service calls it first
   * when it stops, since a Ctrl-C or a SIGTERM to the process group stops PostgreSQL too.
   */
  stopSupervising(): void;
}

export async function superviseEmbeddedPostgres(
  options: Omit<EmbeddedOptions, 'onUnexpectedExit' | 'initialise'>,
  events: SupervisorEvents = {},
  policy: { attempts: number; backoffMs: readonly number[]; giveUpAfterMs: number } = RESTART_POLICY,
): Promise<SupervisedDatabase> {
  const health = new DatabaseHealth();
  let stopped = false;
  let restarting: Promise<void> | undefined;
  let giveUpTimer: NodeJS.Timeout | undefined;
  let current: EmbeddedDatabase;
  let databaseDir: string | undefined;
  let lostMeanwhile: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const pause = new WakeableSleep();

  const start = (port: number | undefined, initialise: boolean) =>
    startEmbeddedPostgres({
      ...options,
      port,
      initialise,
      onClusterFolderChosen: (folder) => {
        databaseDir = folder;
        if (initialise) options.onClusterFolderChosen?.(folder);
      },
      onUnexpectedExit: (exit) => lost(exit),
    });

  const giveUp = (reason: string) => {
    if (stopped) return;
    stopped = true;
    clearTimeout(giveUpTimer);
    events.gaveUp?.(reason);
  };

  const lost = (exit: { code: number | null; signal: NodeJS.Signals | null }) => {
    if (stopped) return;
    if (restarting) {
      lostMeanwhile = exit; // the server just started is gone again: handled once the loop ends
      return;
    }
    const lostAt = Date.now();
    health.markDown(`the embedded PostgreSQL exited (${exit.signal ?? `code ${exit.code}`}); restarting it`);
    events.lost?.(exit);
    giveUpTimer = setTimeout(
      () => giveUp(`the embedded PostgreSQL is not back ${policy.giveUpAfterMs / 1000} s after it exited`),
      policy.giveUpAfterMs,
    );
    giveUpTimer.unref();
    restarting = (async () => {
      await current.stop().catch(() => undefined); // it is gone already: this only lets go of it
      for (let attempt = 1; attempt <= policy.attempts; attempt++) {
        await pause.sleep(policy.backoffMs[Math.min(attempt, policy.backoffMs.length) - 1] ?? 1000);
        if (stopped) return;
        try {
          await removeForeignLockFile(databaseDir ?? path.resolve(options.dataDir, 'postgres'));
          const next = await start(port, false);
          if (stopped) {
            await next.stop();
            return;
          }
          current = next;
          clearTimeout(giveUpTimer);
          const downMs = Date.now() - lostAt;
          health.markUp();
          events.restarted?.(attempt, downMs);
          return;
        } catch (error) {
          events.restartFailed?.(attempt, error);
        }
      }
      giveUp(`the embedded PostgreSQL did not start again after ${policy.attempts} attempts`);
    })().finally(() => {
      restarting = undefined;
      const again = lostMeanwhile;
      lostMeanwhile = undefined;
      if (again && !health.down) lost(again);
    });
  };

  current = await start(options.port, true);
  const port = Number(new URL(current.url).port);
  const stopSupervising = () => {
    stopped = true;
    clearTimeout(giveUpTimer);
    pause.wake();
  };
  return {
    url: current.url,
    health,
    stopSupervising,
    async stop() {
      stopSupervising();
      await restarting;
      await current.stop();
    },
  };
}

/**
 * `postmaster.pid` naming a process that runs but is no postgres (its PID taken by another
 * program since the kill): PostgreSQL would take it for a running server and refuse to start.
 * A postgres process keeps the file (a server of this folder is stopped by the start itself,
 * an orphaned backend still holds the shared memory, which PostgreSQL checks on its own).
 */
export async function removeForeignLockFile(databaseDir: string): Promise<boolean> {
  const pid = await lockFilePid(databaseDir);
  if (pid === undefined || (await isPostmasterOf(pid, databaseDir))) return false;
  let command: string;
  try {
    command = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0] ?? '';
  } catch {
    return false; // not running: PostgreSQL replaces the file itself
  }
  if (/^postgres(:|$)/.test(path.basename(command)) || command.startsWith('postgres:')) return false;
  await unlink(path.join(databaseDir, 'postmaster.pid')).catch(() => undefined);
  return true;
}
