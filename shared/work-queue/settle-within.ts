/**
 * Waits for `work` at most `ms`: resolves true when it settled (fulfilled or rejected) in
 * time, false otherwise. The work goes on either way; its rejection is observed here, so
 * a caller that stops waiting never leaves an unhandled rejection behind.
 */
export function settleWithin(work: Promise<unknown> | undefined, ms: number): Promise<boolean> {
  if (!work) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, ms));
    work.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}
