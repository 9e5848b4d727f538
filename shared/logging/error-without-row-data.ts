import pg from 'pg';
import { stdSerializers } from 'pino';

/**
 * What may be said about a projection's error without quoting the data it failed on.
 *
 * A projection opens personal data and writes it as row values, so its errors can carry
 * them: PostgreSQL's `detail` and `where` quote rows and JSON input, its messages quote
 * the offending value (`date/time field value out of range: "0000-01-01"`), and
 * JSON.parse quotes its input. Only the SQLSTATE code, the error's name, its stack frames
 * and its message with every quoted value masked leave this module; quoted names that
 * are schema objects (the error's table, column, constraint or type, the projection's
 * tables, encodings) stay, since they are what the operator needs to find the fault.
 */

export interface ErrorSummary {
  /** SQLSTATE for database errors (22P05, 22008, 22003, ...), else the error's own code. */
  code: string | undefined;
  message: string;
}

const MAX_MESSAGE_LENGTH = 500;
const MASK = '…';
const ENCODINGS = ['UTF8', 'SQL_ASCII', 'LATIN1', 'WIN1252'];
const JS_IDENTIFIER = /^[A-Za-z_$][\w$]{0,63}$/;

function schemaNames(error: unknown, extra: readonly string[]): Set<string> {
  const names = new Set<string>([...ENCODINGS, ...extra]);
  if (error instanceof pg.DatabaseError) {
    for (const name of [error.table, error.column, error.constraint, error.dataType, error.schema]) {
      if (name) names.add(name);
    }
  }
  return names;
}

/**
 * Masks every quoted part of `message` that is not a known name. A value may hold the quote
 * character itself, so from the first quoted value on, everything up to the last quote
 * of that kind is masked at once.
 */
function maskQuoted(message: string, quote: '"' | "'", keep: (text: string) => boolean): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = message.indexOf(quote, at);
    if (open < 0) return out + message.slice(at);
    const close = message.indexOf(quote, open + 1);
    if (close < 0) return `${out}${message.slice(at, open)}${quote}${MASK}`;
    const inner = message.slice(open + 1, close);
    if (keep(inner)) {
      out += message.slice(at, close + 1);
      at = close + 1;
      continue;
    }
    const last = message.lastIndexOf(quote);
    return `${out}${message.slice(at, open)}${quote}${MASK}${quote}${message.slice(last + 1)}`;
  }
}

function maskedMessage(error: unknown, names: Set<string>): string {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error';
  const firstLine = raw.split(/\r?\n/, 1)[0] ?? '';
  const doubles = maskQuoted(firstLine, '"', (text) => names.has(text));
  const singles = maskQuoted(doubles, "'", (text) => names.has(text) || JS_IDENTIFIER.test(text));
  // eslint-disable-next-line no-control-regex
  const printable = singles.replace(/[\u0000-\u001f\u007f]/g, MASK);
  return printable.length > MAX_MESSAGE_LENGTH
    ? `${printable.slice(0, MAX_MESSAGE_LENGTH)}${MASK}`
    : printable;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.length <= 64 ? code : undefined;
}

/** Code and masked message of `error`; `names` are further schema names that may stay. */
export function summarizeError(error: unknown, names: readonly string[] = []): ErrorSummary {
  return { code: errorCode(error), message: maskedMessage(error, schemaNames(error, names)) };
}

/**
 * The same as an Error for the logger: name, code, masked message and the original stack
 * frames, and nothing else (pino's serializer would copy every other field, `detail` and
 * `where` included).
 */
export function withoutRowData(error: unknown, names: readonly string[] = []): Error {
  const { code, message } = summarizeError(error, names);
  const safe = new Error(message) as Error & { code?: string };
  safe.name = error instanceof Error ? error.name : 'Error';
  if (code) safe.code = code;
  const frames =
    error instanceof Error && error.stack
      ? error.stack.split('\n').filter((line) => line.startsWith('    at '))
      : [];
  safe.stack = [`${safe.name}: ${message}`, ...frames].join('\n');
  return safe;
}

/**
 * pino's `err` serializer for every logger of the service: a database error is logged as
 * `withoutRowData` gives it; any other error as pino logs it.
 */
export function errorWithoutRowData(error: unknown) {
  return stdSerializers.err((error instanceof pg.DatabaseError ? withoutRowData(error) : error) as Error);
}
