/** Percentile (nearest rank) of a list of numbers; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Runs `total` tasks with at most `concurrency` in flight; resolves to the elapsed milliseconds. */
export async function runConcurrently(
  total: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
  onDone?: (done: number) => void,
): Promise<number> {
  let next = 0;
  let done = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const index = next++;
      await task(index);
      done++;
      onDone?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return performance.now() - started;
}

export const perSecond = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : 0);
