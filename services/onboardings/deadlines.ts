import { DateTime, IANAZone } from 'luxon';
import type { Deadline } from './onboarding-events.ts';
import { isStorableInstant } from '../../shared/validation/safe-text.ts';

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A timestamp with an explicit offset (Z or ±hh:mm / ±hhmm); seconds and fractions optional. */
const TIMESTAMP_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * `due_date` and `expires_at` accept a calendar date (YYYY-MM-DD: the end of that day in
 * the team's time zone, with `due_on` and `due_timezone` set) or an ISO timestamp with an
 * offset (kept in its own offset). Anything else, and any instant outside the years 1 to
 * 9999 (as written or in UTC), is null here (400 invalid_deadline).
 */
export function parseDeadline(value: unknown, timezone: string): Deadline | null {
  const deadline = parseAnyDeadline(value, timezone);
  return deadline && isStorableInstant(deadline.due_date) ? deadline : null;
}

function parseAnyDeadline(value: unknown, timezone: string): Deadline | null {
  if (typeof value !== 'string') return null;
  if (CALENDAR_DATE.test(value)) {
    const day = DateTime.fromISO(value, { zone: timezone });
    if (!day.isValid) return null;
    const end = day.endOf('day');
    return { due_date: end.toISO()!, due_on: value, due_timezone: timezone };
  }
  if (TIMESTAMP_WITH_OFFSET.test(value)) {
    const at = DateTime.fromISO(value, { setZone: true });
    if (!at.isValid) return null;
    return { due_date: at.toISO()!, due_on: null, due_timezone: null };
  }
  return null;
}

/** The team's calendar month (YYYY-MM) at `now`: the monthly onboarding count's bucket. */
export function usageMonth(now: Date, timezone: string): string {
  const local = DateTime.fromJSDate(now, { zone: timezone });
  return (local.isValid ? local : DateTime.fromJSDate(now, { zone: 'utc' })).toFormat('yyyy-MM');
}

/**
 * A time zone luxon knows, else UTC (a team's setting is validated where it is written).
 * `IANAZone.create` keeps one zone per name with its validity found once; `isValidZone`
 * would build an Intl.DateTimeFormat on every call (every create and send).
 */
export const knownZone = (timezone: string | null | undefined): string =>
  timezone && IANAZone.create(timezone).isValid ? timezone : 'UTC';
