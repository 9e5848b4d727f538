/** The position a reader has reached, and waiting for it to reach another one. */
export class PositionWatch {
  private waiters = new Set<{ position: bigint; resolve: (reached: boolean) => void }>();

  constructor(private current = 0n) {}

  get position(): bigint {
    return this.current;
  }

  /** Moves forward only. */
  advance(position: bigint): void {
    if (position <= this.current) return;
    this.current = position;
    for (const waiter of this.waiters) {
      if (waiter.position <= position) waiter.resolve(true);
    }
  }

  /** True once the position is at least `position`; false after `timeoutMs`. */
  waitFor(position: bigint, timeoutMs: number): Promise<boolean> {
    if (this.current >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        position,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Ends every wait with false (on stop). */
  release(): void {
    for (const waiter of this.waiters) waiter.resolve(false);
  }
}
