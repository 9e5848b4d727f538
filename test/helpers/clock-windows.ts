import type { ManualClock } from '../../shared/clock.ts';

/**
 * Moves a test's manual clock to just after the start of the next fixed window of
 * `windowSeconds` (the rate-limit store counts in fixed windows), so a test that counts
 * attempts across a minute or two never sees its window end halfway through.
 */
export function alignClockToWindow(clock: ManualClock, windowSeconds: number): void {
  const windowMs = windowSeconds * 1000;
  const intoWindow = clock.now().getTime() % windowMs;
  clock.advance((windowMs - intoWindow) / 1000 + 1);
}
