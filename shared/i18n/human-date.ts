/**
 * Dates as people read them in their own language: "23 June 1990", "23. Juni 1990",
 * "1990年6月23日". Pure and free of Node imports: emails, the PDF, the workspace's review and
 * diffs, and the client's form share it. A calendar date (YYYY-MM-DD) is that day wherever
 * the reader is; an instant (ISO 8601 with offset) is shown in the reader's timezone.
 */
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function knownZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** A calendar date or an instant as a long date in `locale`; the input itself when it is neither. */
export function humanDate(value: string, locale: string, timeZone?: string | null): string {
  const calendar = CALENDAR_DATE.exec(value);
  const instant = calendar
    ? new Date(Date.UTC(Number(calendar[1]), Number(calendar[2]) - 1, Number(calendar[3])))
    : new Date(value);
  if (Number.isNaN(instant.getTime())) return value;
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeZone: calendar ? 'UTC' : knownZone(timeZone),
  }).format(instant);
}

/** An instant as a long date and a time of day in `locale` and `timeZone` (the audit page, the evidence). */
export function humanDateTime(value: string, locale: string, timeZone?: string | null): string {
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return value;
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: knownZone(timeZone),
  }).format(instant);
}
