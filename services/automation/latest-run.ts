import { DateTime } from 'luxon';

/**
 * The rule's latest-run line (client-onboarding-api.md, Automation action run states), the
 * exact texts of this service:
 *
 *   Has not run yet
 *   Last ran Nov 21, 2026, 10:15 AM UTC          (time of the attempt, team's time zone)
 *   Failed, trying again: HTTP 500               (a retryable failure; another attempt is queued)
 *   Failed: HTTP 400 (stopped)                   (a non-retryable failure, or the 10th attempt failed)
 *
 * Only the latest run is shown. A run skipped because the plan no longer includes
 * automations leaves the line as it was.
 */
export type LatestRunOutcome = 'succeeded' | 'retrying' | 'stopped';

export interface LatestRun {
  outcome: LatestRunOutcome;
  reason: string | null;
  ran_at: Date;
}

export const NOT_RUN_YET = 'Has not run yet';

/** `Nov 21, 2026, 10:15 AM UTC`: en-US, minutes, the zone's short name (or GMT offset). */
export function formatRunTime(at: Date, timezone: string): string {
  const zoned = DateTime.fromJSDate(at, { zone: timezone });
  const local = zoned.isValid ? zoned : DateTime.fromJSDate(at, { zone: 'UTC' });
  return local.setLocale('en-US').toFormat('LLL d, yyyy, h:mm a ZZZZ');
}

export function latestRunLine(run: LatestRun | null, timezone: string): string {
  if (run === null) return NOT_RUN_YET;
  switch (run.outcome) {
    case 'succeeded':
      return `Last ran ${formatRunTime(run.ran_at, timezone)}`;
    case 'retrying':
      return `Failed, trying again: ${run.reason ?? 'unknown error'}`;
    case 'stopped':
      return `Failed: ${run.reason ?? 'unknown error'} (stopped)`;
    default: {
      const unknown: never = run.outcome;
      throw new Error(`Unknown outcome ${String(unknown)}`);
    }
  }
}
