import type { Pool } from '../db/pool.ts';

/** How often the shared checkpoints are read while someone waits on them. */
export const SHARED_CHECKPOINT_POLL_MS = 20;

interface Waiter {
  position: bigint;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * Waits for the projections' checkpoints in the shared database, whichever process moves
 * them: an API-only instance reads its writes through this while a worker runs the
 * projections. One poll loop per process serves every waiter and runs only while someone
 * waits (one small query per SHARED_CHECKPOINT_POLL_MS); each wait is bounded by its timeout.
 */
export class SharedCheckpointWait {
  private readonly waiters = new Set<Waiter>();
  private polling = false;

  constructor(
    private readonly pool: Pool,
    private readonly names: () => string[],
    private readonly pollMs = SHARED_CHECKPOINT_POLL_MS,
  ) {}

  /** Resolves true once every named checkpoint is at or past `position`, false after `timeoutMs`. */
  waitFor(position: bigint, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => this.settle(waiter, false), timeoutMs),
      };
      this.waiters.add(waiter);
      void this.poll();
    });
  }

  /** The lowest checkpoint of the named projections: what every read model has applied. */
  async lowest(): Promise<bigint> {
    const result = await this.pool.query<{ position: string | null }>(
      'select min(position) as position from checkpoints where name = any($1)',
      [this.names()],
    );
    return BigInt(result.rows[0]?.position ?? 0);
  }

  private settle(waiter: Waiter, reached: boolean): void {
    if (!this.waiters.delete(waiter)) return;
    clearTimeout(waiter.timer);
    waiter.resolve(reached);
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.size > 0) {
        // A failed read (the database out of reach) counts as no progress; the timeout still ends the wait.
        const lowest = await this.lowest().catch(() => -1n);
        for (const waiter of this.waiters) if (lowest >= waiter.position) this.settle(waiter, true);
        if (this.waiters.size > 0) await new Promise((resolve) => setTimeout(resolve, this.pollMs));
      }
    } finally {
      this.polling = false;
    }
  }
}
