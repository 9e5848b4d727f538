import type { Pool, PoolClient } from './pool.ts';
import { WakeableSleep } from '../runtime/wakeable-sleep.ts';

/** How often an instance that does not own the part asks again. */
export const OWNER_RETRY_MS = 2000;

export interface OwnedPart {
  /** Called with the owner's session once this instance owns the part. */
  start(session: PoolClient): void | Promise<void>;
  /** Called when ownership ends (session lost, or `stop`). */
  stop(): Promise<void>;
}

export interface SingleOwner {
  /** True while this instance owns the part. */
  readonly owning: boolean;
  /** Stops the part if owned, gives up ownership, and stops asking. */
  stop(): Promise<void>;
}

/**
 * Runs a part in at most one process per database: the owner holds a session-level advisory
 * lock (`pg_try_advisory_lock(key)`) on a connection of its own for as long as it runs the
 * part. When the owner dies its connection closes and PostgreSQL frees the lock; another
 * instance, asking every OWNER_RETRY_MS, takes over within seconds. The part writes its
 * progress through the owner's session (`start(session)`), so a write from an owner whose
 * session is gone fails instead of racing the new owner (fencing).
 */
export function runAsSingleOwner(
  pool: Pool,
  key: number,
  part: OwnedPart,
  retryMs = OWNER_RETRY_MS,
): SingleOwner {
  let stopping = false;
  let owning = false;
  let session: PoolClient | undefined;
  let lost: (() => void) | undefined;

  const pause = new WakeableSleep();

  const loop = (async () => {
    while (!stopping) {
      try {
        session = await pool.connect();
        const result = await session.query<{ owned: boolean }>('select pg_try_advisory_lock($1) as owned', [
          key,
        ]);
        if (result.rows[0]?.owned && !stopping) {
          owning = true;
          const ended = new Promise<void>((resolve) => {
            lost = resolve;
            session!.once('error', () => resolve());
            session!.once('end', () => resolve());
          });
          await part.start(session);
          await ended; // until the session breaks or stop() is called
          owning = false;
          await part.stop();
        }
      } catch {
        // The database out of reach: ask again later.
      } finally {
        owning = false;
        if (session) {
          // A session whose lock may still be held is closed rather than pooled: closing frees the lock.
          session.release(true);
          session = undefined;
        }
      }
      if (!stopping) await pause.sleep(retryMs);
    }
  })();

  return {
    get owning() {
      return owning;
    },
    async stop() {
      stopping = true;
      lost?.();
      pause.wake();
      await loop;
    },
  };
}
