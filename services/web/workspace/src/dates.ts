/** Pure: an ISO instant as a US date (in UTC, the unit of key expiry). */
export function formatDate(iso: string | null): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
}

/** Pure: an ISO instant as date and time in the viewer's timezone. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** Pure: today's date in UTC as YYYY-MM-DD (the earliest expiry date). */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
