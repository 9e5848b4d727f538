import { LOCALES } from '../../../shared/i18n/locales.ts';
import { createClientBody } from '../clients-routes.ts';
import { normalizedEmail } from '../client-email-index.ts';
import type { CsvTable } from './csv-table.ts';
import type { ColumnMapping } from './column-mapping.ts';

/*
 * What an import will do with each row of the file (docs/decisions/0087-client-import.md),
 * decided before anything is written:
 *
 * - a row is checked with the rules of creating one client (createClientBody); a row that
 *   breaks one is skipped and named, with why, in words ("Row 7: the email 'bob@' is not an
 *   email address"). Rows are numbered as a spreadsheet shows them: the header is row 1;
 * - rows with the same email (letter case and spaces aside) are one client: the first such
 *   row is kept and a later row only fills the cells the first left empty (a merge, named);
 * - an email a client of the team already has is that client: kept as it is, not changed,
 *   and part of the imported list (so a template can be sent to it too).
 */

export interface ImportRow {
  /** The row number in the file (the header is row 1). */
  row: number;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  locale: string | undefined;
}

export type RowProblemCode =
  'name_missing' | 'email_missing' | 'email_invalid' | 'too_long' | 'locale_unknown' | 'invalid';

export interface RowProblem {
  row: number;
  code: RowProblemCode;
  /** The cell's text the problem is about (cut to 100 characters). */
  value: string;
  /** The problem in words (English; the workspace says it in the member's language from code and value). */
  text: string;
}

export interface RowMerge {
  /** The later row merged into `into`. */
  row: number;
  into: number;
  email: string;
}

export interface ImportPlan {
  /** One per client, in file order (the first row of each email). */
  clients: ImportRow[];
  problems: RowProblem[];
  merges: RowMerge[];
}

const cut = (value: string) => (value.length > 100 ? `${value.slice(0, 100)}…` : value);

const localeOf = (value: string) =>
  (LOCALES as readonly string[]).find((locale) => locale.toLowerCase() === value.toLowerCase());

/** The problem of a row that breaks createClientBody's rules, in words. */
function problemOf(
  row: number,
  cells: Record<'name' | 'email', string>,
  issue: { path: (string | number)[]; message: string },
): RowProblem {
  const field = String(issue.path[0] ?? '');
  const value = field === 'name' || field === 'email' ? cells[field] : '';
  if (field === 'name' && value === '')
    return { row, code: 'name_missing', value, text: `Row ${row}: the name is missing` };
  if (field === 'email' && value === '')
    return { row, code: 'email_missing', value, text: `Row ${row}: the email is missing` };
  if (field === 'email' && !issue.message.includes('at most')) {
    return {
      row,
      code: 'email_invalid',
      value: cut(value),
      text: `Row ${row}: the email '${cut(value)}' is not an email address`,
    };
  }
  if (issue.message.includes('at most')) {
    return { row, code: 'too_long', value: field, text: `Row ${row}: ${issue.message}` };
  }
  return { row, code: 'invalid', value: field, text: `Row ${row}: ${issue.message}` };
}

/** The cell of `field` in `cells` (trimmed; empty when the field has no column). */
const cellOf = (cells: string[], mapping: ColumnMapping, field: keyof ColumnMapping) => {
  const index = mapping[field];
  return index === null || index === undefined ? '' : (cells[index] ?? '').trim();
};

export function planImport(table: CsvTable, mapping: ColumnMapping): ImportPlan {
  const problems: RowProblem[] = [];
  const merges: RowMerge[] = [];
  const byEmail = new Map<string, ImportRow>();
  table.rows.forEach((cells, index) => {
    const row = index + 2;
    const raw = {
      name: cellOf(cells, mapping, 'name'),
      email: cellOf(cells, mapping, 'email'),
      company: cellOf(cells, mapping, 'company'),
      phone: cellOf(cells, mapping, 'phone'),
      locale: cellOf(cells, mapping, 'locale'),
    };
    const checked = createClientBody.safeParse({
      name: raw.name,
      email: raw.email,
      company: raw.company || null,
      phone: raw.phone || null,
    });
    if (!checked.success) {
      problems.push(problemOf(row, raw, checked.error.issues[0]!));
      return;
    }
    const locale = raw.locale ? localeOf(raw.locale) : undefined;
    if (raw.locale && !locale) {
      problems.push({
        row,
        code: 'locale_unknown',
        value: cut(raw.locale),
        text: `Row ${row}: the language '${cut(raw.locale)}' is not one of ${LOCALES.join(', ')}`,
      });
      return;
    }
    const client: ImportRow = {
      row,
      name: checked.data.name,
      email: checked.data.email,
      company: checked.data.company ?? null,
      phone: checked.data.phone ?? null,
      locale,
    };
    const key = normalizedEmail(client.email);
    const first = byEmail.get(key);
    if (!first) {
      byEmail.set(key, client);
      return;
    }
    // A later row only fills what the first left empty.
    first.company ??= client.company;
    first.phone ??= client.phone;
    first.locale ??= client.locale;
    merges.push({ row, into: first.row, email: first.email });
  });
  return { clients: [...byEmail.values()], problems, merges };
}
