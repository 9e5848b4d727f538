/**
 * A sleep of a retry loop that a stop ends early: `sleep(ms)` waits, `wake()` resolves the
 * sleep in progress at once (and does nothing when none is).
 */
export function wakeableSleep(): { sleep: (ms: number) => Promise<void>; wake: () => void } {
  let wakeSleeper: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wakeSleeper = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => wakeSleeper?.(),
  };
}
