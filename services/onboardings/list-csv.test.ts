import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { onboardingsCsv, safeCell } from './list-csv.ts';
import type { WorkspaceOnboardingItem } from '../../projections/onboardings/workspace-queries.ts';

describe('the onboardings CSV', () => {
  it('prefixes every cell a spreadsheet would read as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(safeCell(`${start}1`)).toBe(`'${start}1`);
    expect(safeCell('Ada')).toBe('Ada');
    expect(safeCell(null)).toBe('');
    expect(safeCell(-3)).toBe("'-3");
  });

  it('quotes commas, quotes and line breaks so the text parses back', () => {
    const item = {
      id: '00000000-0000-4000-8000-000000000001',
      status: 'sent',
      progress_pct: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      due_on: null,
      assignee_name: null,
      archived_at: null,
      review_state: null,
      answers_awaiting_review: 0,
      client: { id: 'c', name: 'O"Brien, Ada\nSmith', email: '=cmd@example.com' },
      template: { id: 't', name: 'KYC' },
    } as unknown as WorkspaceOnboardingItem;
    const rows = parse(onboardingsCsv([item]), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ client_name: 'O"Brien, Ada\nSmith', client_email: "'=cmd@example.com" });
  });
});
