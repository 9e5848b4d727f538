import { DateTime } from 'luxon';

/**
 * Placeholders of Send email (subject, body) and Notify team member (message):
 * {{client_name}}, {{client_email}}, {{team_name}}, {{template_name}}, {{company}},
 * {{due_date}} (blank without a due date), {{progress_pct}}, {{event_type}}. Spaces inside
 * the braces are allowed ({{ client_name }}); an unknown name is left as typed; a value
 * is inserted as is (plain text: no escaping, line breaks kept).
 */
export const PLACEHOLDERS = [
  'client_name',
  'client_email',
  'team_name',
  'template_name',
  'company',
  'due_date',
  'progress_pct',
  'event_type',
] as const;

export type Placeholder = (typeof PLACEHOLDERS)[number];

export type PlaceholderValues = Record<Placeholder, string>;

const PATTERN = /\{\{\s*([a-z_]+)\s*\}\}/g;

export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(PATTERN, (whole, name: string) =>
    (PLACEHOLDERS as readonly string[]).includes(name) ? values[name as Placeholder] : whole,
  );
}

/** Anything written as a placeholder: `{{` and `}}` around one name, whatever its spelling. */
const WRITTEN = /\{\{\s*([^{}]*?)\s*\}\}/g;

export const isPlaceholder = (name: string): name is Placeholder =>
  (PLACEHOLDERS as readonly string[]).includes(name);

/**
 * The placeholders written in `text` that do not exist (`{{client.name}}`, `{{ Client_Name }}`),
 * each once, as typed. Checked when a rule is saved: an unknown one would reach the reader as
 * typed, since fillPlaceholders leaves it alone.
 */
export function unknownPlaceholders(text: string): string[] {
  const unknown = [...text.matchAll(WRITTEN)].filter((match) => !isPlaceholder(match[1]!)).map((m) => m[0]);
  return [...new Set(unknown)];
}

const LUXON_FORMATS: Record<string, string> = {
  'MM/DD/YYYY': 'MM/dd/yyyy',
  'DD/MM/YYYY': 'dd/MM/yyyy',
  'YYYY-MM-DD': 'yyyy-MM-dd',
  'DD.MM.YYYY': 'dd.MM.yyyy',
};

/**
 * {{due_date}}: the due date as a calendar date in `dateFormat` (MM/DD/YYYY, ...). A date
 * given as a calendar date (`due_on`) is shown as given; a timestamp is shown as its date
 * in `timezone`. Blank without a due date.
 */
export function formatDueDate(
  due: { due_date: string | null; due_on: string | null } | null,
  dateFormat: string,
  timezone: string,
): string {
  if (!due?.due_date) return '';
  const format = LUXON_FORMATS[dateFormat] ?? LUXON_FORMATS['MM/DD/YYYY']!;
  const date = due.due_on
    ? DateTime.fromISO(due.due_on, { zone: 'UTC' })
    : DateTime.fromISO(due.due_date, { setZone: true }).setZone(timezone);
  const shown = date.isValid ? date : DateTime.fromISO(due.due_date, { zone: 'UTC' });
  return shown.isValid ? shown.toFormat(format) : '';
}
