import { describe, expect, it } from 'vitest';
import { guessMapping } from './column-mapping.ts';
import { CsvProblem, readCsv, separatorOf } from './csv-table.ts';
import { planImport } from './import-plan.ts';

describe('reading a CSV of clients', () => {
  it('takes commas or semicolons, a BOM and quoted cells', () => {
    expect(separatorOf('a;b;"c,d"')).toBe(';');
    expect(separatorOf('a,b;c,d')).toBe(',');
    const table = readCsv('\uFEFFName,Email\r\n"Ann, Jr.",ann@example.com\r\n\r\nBo\n');
    expect(table).toEqual({
      headers: ['Name', 'Email'],
      rows: [
        ['Ann, Jr.', 'ann@example.com'],
        ['Bo', ''],
      ],
    });
  });

  it('refuses an empty, unreadable or too long file in words', () => {
    expect(() => readCsv('Name,Email\n')).toThrow(CsvProblem);
    expect(() => readCsv('Name,Email\n"open,x\n')).toThrow(/not a readable CSV/);
    expect(() => readCsv(`Name,Email\n${'a,b\n'.repeat(2001)}`)).toThrow(/more than 2,000 rows/);
  });

  it('guesses the columns from the header line', () => {
    expect(guessMapping(['E-Mail-Adresse', 'Firma', 'Nom', 'Tel.', 'Sprache'])).toEqual({
      name: 2,
      email: 0,
      company: 1,
      phone: 3,
      locale: 4,
    });
    expect(guessMapping(['Notes', 'Client name', 'Work email'])).toMatchObject({
      name: 1,
      email: 2,
      phone: null,
    });
  });
});

describe('the import plan', () => {
  const mapping = { name: 0, email: 1, company: 2, phone: null, locale: null };
  it('names bad rows, merges repeated emails into the first row', () => {
    const plan = planImport(
      readCsv(
        'name,email,company\nAnn,ann@example.com,\nBob,bob@,\nANN B,Ann@Example.com ,Acme\n,x@example.com,',
      ),
      mapping,
    );
    expect(plan.clients).toEqual([
      { row: 2, name: 'Ann', email: 'ann@example.com', company: 'Acme', phone: null, locale: undefined },
    ]);
    expect(plan.merges).toEqual([{ row: 4, into: 2, email: 'ann@example.com' }]);
    expect(plan.problems.map((problem) => problem.text)).toEqual([
      "Row 3: the email 'bob@' is not an email address",
      'Row 5: the name is missing',
    ]);
  });
});
