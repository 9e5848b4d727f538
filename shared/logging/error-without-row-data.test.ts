import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { errorWithoutRowData, summarizeError, withoutRowData } from './error-without-row-data.ts';
import { createLogger } from './logger.ts';

function databaseError(message: string, fields: Partial<pg.DatabaseError>): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, 0, 'error'), fields);
}

describe('errors without row data', () => {
  it('keeps the SQLSTATE and drops detail and where, which quote the row', () => {
    const error = databaseError('unsupported Unicode escape sequence', {
      code: '22P05',
      detail: '\\u0000 cannot be converted to text.',
      where: 'JSON data, line 1: [{"name":"Ada Lovelace\\u0000',
    });
    expect(summarizeError(error)).toEqual({ code: '22P05', message: 'unsupported Unicode escape sequence' });
    const safe = withoutRowData(error);
    expect(JSON.stringify({ ...safe, message: safe.message, stack: safe.stack })).not.toContain('Lovelace');
    expect(Object.keys(safe).sort()).toEqual(['code', 'name']);
    expect(safe.stack?.split('\n')[0]).toBe('error: unsupported Unicode escape sequence');
  });

  it('masks quoted values in the message and keeps quoted schema names', () => {
    expect(
      summarizeError(databaseError('date/time field value out of range: "0000-01-01"', { code: '22008' })),
    ).toEqual({ code: '22008', message: 'date/time field value out of range: "…"' });
    expect(
      summarizeError(databaseError('value "2147483648" is out of range for type integer', { code: '22003' }))
        .message,
    ).toBe('value "…" is out of range for type integer');
    expect(
      summarizeError(
        databaseError('null value in column "team_id" of relation "clients" violates not-null constraint', {
          code: '23502',
          column: 'team_id',
          table: 'clients',
        }),
      ).message,
    ).toBe('null value in column "team_id" of relation "clients" violates not-null constraint');
    // A value holding the quote character is masked whole, up to the last quote.
    expect(
      summarizeError(databaseError('invalid input syntax for type uuid: "Ada" "Lovelace"', { code: '22P02' }))
        .message,
    ).toBe('invalid input syntax for type uuid: "…"');
    expect(summarizeError(databaseError('invalid byte sequence for encoding "UTF8": 0x00', {})).message).toBe(
      'invalid byte sequence for encoding "UTF8": 0x00',
    );
  });

  it('masks what JSON.parse quotes of its input, keeps property names of a TypeError', () => {
    let parseError: unknown;
    try {
      JSON.parse('Ada Lovelace');
    } catch (error) {
      parseError = error;
    }
    expect(summarizeError(parseError).message).not.toContain('Lovelace');
    expect(
      summarizeError(new TypeError("Cannot read properties of undefined (reading 'status')")).message,
    ).toBe("Cannot read properties of undefined (reading 'status')");
    expect(summarizeError(new Error("unknown value 'Ada Lovelace'\nsecond line")).message).toBe(
      "unknown value '…'",
    );
  });

  it("is every logger's err serializer: database errors lose detail and where, other errors stay whole", () => {
    const serializers = (createLogger('silent') as unknown as Record<symbol, Record<string, unknown>>)[
      pino.symbols.serializersSym
    ];
    expect(serializers?.err).toBe(errorWithoutRowData);
    const logged = errorWithoutRowData(
      databaseError('invalid input syntax for type json', {
        code: '22P02',
        detail: 'Token "Lovelace" is invalid.',
        where: 'JSON data, line 1: {"name": Lovelace',
      }),
    );
    expect(JSON.stringify(logged)).not.toContain('Lovelace');
    expect(logged).toMatchObject({
      type: 'Error',
      code: '22P02',
      message: 'invalid input syntax for type json',
    });
    const plain = Object.assign(new Error('hook target "example.test" refused'), { statusCode: 502 });
    expect(errorWithoutRowData(plain)).toMatchObject({
      message: 'hook target "example.test" refused',
      statusCode: 502,
    });
  });
});
