/**
 * The wait of a reading loop between tries: `sleep(ms)` ends after `ms` or at the next
 * `wake()`, whichever comes first (a stop, a notification of new events). A wake while
 * nothing sleeps does nothing.
 */
export class WakeableSleep {
  private wakeUp: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }

  wake(): void {
    this.wakeUp?.();
  }
}
