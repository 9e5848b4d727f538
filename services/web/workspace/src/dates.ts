import { currentLocale } from './i18n.ts';

/** An ISO instant as a date in the workspace's language (in UTC, the unit of key expiry). */
export function formatDate(iso: string | null): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}

/** An ISO instant as date and time in the workspace's language and the viewer's timezone. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

/** Pure: today's date in UTC as YYYY-MM-DD (the earliest expiry date). */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
