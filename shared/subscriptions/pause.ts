/** A sleep that `interrupt` ends early (so that stopping never waits out a back-off). */
export class Pause {
  private wake: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  interrupt(): void {
    this.wake?.();
  }
}

/** Back-off after consecutive failures: 200 ms, doubling, at most `maxMs`. */
export const backoffMs = (failures: number, maxMs = 30_000) =>
  Math.min(maxMs, 200 * 2 ** Math.max(0, Math.min(failures - 1, 20)));

/** The longest back-off while the database cannot be reached, so work resumes soon after it is back. */
export const CONNECTION_RETRY_MAX_MS = 2000;
