import type { Logger } from '../logging/logger.ts';

/**
 * One database read shared by the gauges of a family during one scrape: prom-client
 * collects every metric of a scrape at once, so the first gauge starts the read and the
 * others join it while it is in flight; the next scrape reads again. A failed or timed-out
 * read yields `fallback` and a warning, so one slow table never fails the whole answer.
 */
export function collectOnce<T>(
  family: string,
  read: () => Promise<T>,
  fallback: T,
  logger: Logger,
): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= read()
      .catch((error: unknown) => {
        logger.warn(
          { family, error: error instanceof Error ? error.message : String(error) },
          'metrics read failed',
        );
        return fallback;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
}
