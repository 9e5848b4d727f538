import { stringify } from 'csv-stringify/sync';
import type { WorkspaceOnboardingItem } from '../../projections/onboardings/workspace-queries.ts';

/**
 * The onboardings list's CSV export: one row per onboarding of the view, RFC 4180 quoting
 * by csv-stringify. A cell a spreadsheet would read as a formula (it starts with = + - @,
 * a tab or a carriage return) is prefixed with an apostrophe (OWASP's CSV injection advice):
 * client names and template names are typed by people outside the team.
 */
export const CSV_COLUMNS = [
  'client_name',
  'client_email',
  'template',
  'status',
  'review_state',
  'answers_awaiting_review',
  'progress_pct',
  'created_at',
  'due_on',
  'assignee',
  'archived_at',
  'id',
] as const;

/** A cell that a spreadsheet cannot take for a formula. */
export function safeCell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const cells = (item: WorkspaceOnboardingItem) => [
  item.client.name,
  item.client.email,
  item.template.name,
  item.status,
  item.review_state,
  item.answers_awaiting_review,
  item.progress_pct,
  item.created_at,
  item.due_on,
  item.assignee_name,
  item.archived_at,
  item.id,
];

const csv = (records: string[][]) => stringify(records, { record_delimiter: 'windows' });

/** The CSV text (header first) of the items. */
export function onboardingsCsv(items: readonly WorkspaceOnboardingItem[]): string {
  return csv([[...CSV_COLUMNS], ...items.map((item) => cells(item).map(safeCell))]);
}

/**
 * The same CSV written as its pages arrive (the export streams): the header with the first
 * page, then each further page's records. Every record ends with CRLF, so the pieces join
 * into onboardingsCsv's text. Stopped early (the download was cancelled), `rest` is ended too,
 * so its reader lets go of what it holds.
 */
export async function* onboardingsCsvChunks(
  first: readonly WorkspaceOnboardingItem[],
  rest: AsyncGenerator<readonly WorkspaceOnboardingItem[]>,
): AsyncGenerator<string> {
  try {
    yield csv([[...CSV_COLUMNS], ...first.map((item) => cells(item).map(safeCell))]);
    for await (const items of rest) yield csv(items.map((item) => cells(item).map(safeCell)));
  } finally {
    await rest.return(undefined);
  }
}
