import { parse } from 'csv-parse/sync';

/*
 * A CSV file as a table of text cells, read on the server (docs/decisions/0087-client-import.md):
 * UTF-8 with or without a byte order mark, cells separated by commas or semicolons (the one
 * the header line uses most; spreadsheets in many European locales write semicolons), quoted
 * cells as RFC 4180 writes them. Bounded so one import cannot hold the service: at most
 * MAX_CSV_CHARS characters and MAX_IMPORT_ROWS data rows.
 */

/**
 * The largest file an import reads: 300,000 characters (2,000 rows of 150), so that its JSON
 * body stays under the 1 MiB every route keeps even when each character takes three bytes.
 */
export const MAX_CSV_CHARS = 300_000;
/** The most data rows (the header not counted) one import takes. */
export const MAX_IMPORT_ROWS = 2000;

export interface CsvTable {
  headers: string[];
  /** Data rows, each as long as `headers` (missing cells are empty). */
  rows: string[][];
}

/** Why a file is not read at all, in words (a row's problems are the import plan's). */
export class CsvProblem extends Error {
  constructor(
    readonly code: 'csv_too_large' | 'csv_too_many_rows' | 'csv_empty' | 'csv_unreadable',
    message: string,
  ) {
    super(message);
  }
}

/** The separator of the header line: the more frequent of ; and , outside quotes (comma on a tie). */
export function separatorOf(text: string): ',' | ';' {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',') commas++;
    else if (!quoted && char === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

export function readCsv(input: string): CsvTable {
  if (input.length > MAX_CSV_CHARS) {
    throw new CsvProblem(
      'csv_too_large',
      `The file is larger than ${MAX_CSV_CHARS.toLocaleString('en-US')} characters`,
    );
  }
  const text = input.replace(/^\uFEFF/, '');
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: separatorOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new CsvProblem(
      'csv_unreadable',
      `The file is not a readable CSV${line ? ` (near line ${line})` : ''}: ${(error as Error).message}`,
    );
  }
  const [headers, ...rows] = records.filter((record) => record.some((cell) => cell !== ''));
  if (!headers || rows.length === 0) {
    throw new CsvProblem('csv_empty', 'The file has no rows below its header line');
  }
  if (rows.length > MAX_IMPORT_ROWS) {
    throw new CsvProblem(
      'csv_too_many_rows',
      `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows`,
    );
  }
  return { headers, rows: rows.map((row) => headers.map((_, index) => row[index] ?? '')) };
}
