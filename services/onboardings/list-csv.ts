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

/** The CSV text (header first) of the items. */
export function onboardingsCsv(items: readonly WorkspaceOnboardingItem[]): string {
  return stringify([[...CSV_COLUMNS], ...items.map((item) => cells(item).map(safeCell))], {
    record_delimiter: 'windows',
  });
}
