/**
 * Dates in the client's own date format and timezone (the Client's `date_format` and
 * `timezone`). An instant (ISO 8601 with offset) is shown as the calendar day it is in the
 * client's timezone; a calendar date (YYYY-MM-DD) is shown as it is, without a timezone.
 */
import { isCalendarDate } from '../../../templates/contract/field-catalogue.ts';
import { DATE_FORMATS, DEFAULT_DATE_FORMAT, type DateFormat } from '../../../../shared/i18n/locales.ts';

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

export function dateFormatOf(value: string | null | undefined): DateFormat {
  return (DATE_FORMATS as readonly string[]).includes(value ?? '')
    ? (value as DateFormat)
    : DEFAULT_DATE_FORMAT;
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface Ymd {
  year: string;
  month: string;
  day: string;
}

function arrange({ year, month, day }: Ymd, format: DateFormat): string {
  switch (format) {
    case 'DD/MM/YYYY':
      return `${day}/${month}/${year}`;
    case 'YYYY-MM-DD':
      return `${year}-${month}-${day}`;
    case 'DD.MM.YYYY':
      return `${day}.${month}.${year}`;
    default:
      return `${month}/${day}/${year}`;
  }
}

/** The calendar day of an instant in a timezone (UTC when the zone is unknown). */
export function dayInZone(instant: Date, timeZone: string): Ymd {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: isTimeZone(timeZone) ? timeZone : 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return { year: part('year').padStart(4, '0'), month: part('month'), day: part('day') };
}

/** An ISO instant or a YYYY-MM-DD date in the client's format; the input itself when it is neither. */
export function formatDate(value: string, format: string, timeZone: string): string {
  const fmt = dateFormatOf(format);
  const ymd = YMD.exec(value);
  if (ymd) return arrange({ year: ymd[1]!, month: ymd[2]!, day: ymd[3]! }, fmt);
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return value;
  return arrange(dayInZone(instant, timeZone), fmt);
}

/** The time of day of an instant in the client's timezone, in the page's language. */
export function formatTime(value: string, locale: string, timeZone: string): string {
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return '';
  return new Intl.DateTimeFormat(locale, {
    timeZone: isTimeZone(timeZone) ? timeZone : 'UTC',
    hour: 'numeric',
    minute: '2-digit',
  }).format(instant);
}

/**
 * A date the client typed in their format back to YYYY-MM-DD; null when it is not a real
 * date. Any of / . - or spaces separates the parts; a YYYY-MM-DD date is understood in
 * every format.
 */
export function parseDate(text: string, format: string): string | null {
  const parts = text.trim().split(/[\s./-]+/);
  if (parts.length !== 3 || parts.some((part) => !/^\d+$/.test(part))) return null;
  const [a, b, c] = parts as [string, string, string];
  const fmt = dateFormatOf(format);
  let year: string, month: string, day: string;
  if (a.length === 4) [year, month, day] = [a, b, c];
  else if (fmt === 'MM/DD/YYYY') [month, day, year] = [a, b, c];
  else if (fmt === 'YYYY-MM-DD') return null;
  else [day, month, year] = [a, b, c];
  if (year.length !== 4 || month.length > 2 || day.length > 2) return null;
  const result = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isCalendarDate(result) ? result : null;
}
