import { DomainError } from '../commands/decider.ts';

/**
 * What PostgreSQL can store, checked before anything reaches the event log: an event a
 * projection cannot write would stop that projection for every team. PostgreSQL refuses
 * NUL in text and jsonb (22P05), unpaired UTF-16 surrogates in jsonb (22P05), years
 * outside 1 to 9999 as we write timestamps (22008) and integers beyond int4 (22003).
 * The HTTP edge (shared/http/input-guard.ts) and the deciders both use these rules.
 */

/** Deepest nesting of objects and arrays accepted anywhere in an input. */
export const MAX_NESTING_DEPTH = 32;
/**
 * The deciders' limit: a command wraps input in a few levels of its own (a template's
 * config inside an onboarding's snapshot), so it allows twice the input's nesting.
 */
export const MAX_COMMAND_DEPTH = 2 * MAX_NESTING_DEPTH;
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No NUL character and no unpaired surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !UNPAIRED_SURROGATE.test(value);
}

/** A whole number that fits a PostgreSQL integer (int4) column. */
export function isInt4(value: number): boolean {
  return Number.isInteger(value) && value >= INT4_MIN && value <= INT4_MAX;
}

const storableYear = (year: number) => year >= MIN_YEAR && year <= MAX_YEAR;

/**
 * An instant whose year lies in 1 to 9999, both as written (a timestamp keeps its own
 * offset) and in UTC. Takes a Date or an ISO 8601 string.
 */
export function isStorableInstant(value: Date | string): boolean {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime()) || !storableYear(date.getUTCFullYear())) return false;
  if (typeof value !== 'string') return true;
  const written = /^([+-]?\d{4,6})-/.exec(value);
  return written === null || storableYear(Number(written[1]));
}

export type UnstorableProblem = 'text' | 'key' | 'depth' | 'number' | 'date';

export interface UnstorableValue {
  /** Where, as a list of keys and indexes from the walked value. */
  path: (string | number)[];
  problem: UnstorableProblem;
}

/**
 * The first value that cannot be stored, anywhere inside `value`: a string (value or
 * object key) with NUL or an unpaired surrogate, a number that is not finite, an invalid
 * Date or one outside years 1 to 9999, or objects and arrays nested deeper than
 * `maxDepth`. Every object is entered (request parts such as path parameters and query
 * strings come as objects of their own classes) except binary data.
 */
export function findUnstorable(value: unknown, maxDepth = MAX_NESTING_DEPTH): UnstorableValue | undefined {
  return walk(value, [], 0, maxDepth);
}

/** The problem of a value that is not an object or array, if any (no allocation). */
function leafProblem(value: unknown): UnstorableProblem | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : 'text';
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'number';
  return undefined;
}

/**
 * One pass over `value` with one path (pushed and popped on the way, copied only for a
 * value found): linear in the value's size, with no allocation per key or item.
 */
function walk(
  value: unknown,
  path: (string | number)[],
  depth: number,
  maxDepth: number,
): UnstorableValue | undefined {
  if (value === null || typeof value !== 'object') {
    const problem = leafProblem(value);
    return problem ? { path: path.slice(), problem } : undefined;
  }
  if (value instanceof Date)
    return isStorableInstant(value) ? undefined : { path: path.slice(), problem: 'date' };
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return undefined;
  if (depth >= maxDepth) return { path: path.slice(), problem: 'depth' };
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item === null || typeof item !== 'object') {
        const problem = leafProblem(item);
        if (problem) return { path: [...path, index], problem };
        continue;
      }
      path.push(index);
      const inner = walk(item, path, depth + 1, maxDepth);
      path.pop();
      if (inner) return inner;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    if (!isStorableText(key)) return { path: path.slice(), problem: 'key' };
    const item = record[key];
    if (item === null || typeof item !== 'object') {
      const problem = leafProblem(item);
      if (problem) return { path: [...path, key], problem };
      continue;
    }
    path.push(key);
    const inner = walk(item, path, depth + 1, maxDepth);
    path.pop();
    if (inner) return inner;
  }
  return undefined;
}

/** `custom_fields.plan[2]`, or `fallback` for the walked value itself. */
export function describePath(path: (string | number)[], fallback: string): string {
  if (path.length === 0) return fallback;
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

/** The text of a refused value, for error bodies (never the value itself). */
export function unstorableMessage(found: UnstorableValue, fallback = 'body'): string {
  const where = describePath(found.path, fallback);
  switch (found.problem) {
    case 'text':
      return `${where} contains a NUL character or an unpaired surrogate`;
    case 'key':
      return `a key of ${where} contains a NUL character or an unpaired surrogate`;
    case 'depth':
      return `${where} is nested too deeply (at most ${MAX_NESTING_DEPTH} levels)`;
    case 'number':
      return `${where} must be a finite number`;
    case 'date':
      return `${where} must be a date in the years ${MIN_YEAR} to ${MAX_YEAR}`;
  }
}

/** The decider's refusal: code invalid_body, `details.issues` as the operator API gives them. */
export function unstorableInput(path: string, message: string): DomainError {
  return new DomainError('invalid_body', message, { issues: [{ path, message }] });
}

/** A decider's check: throws invalid_body when anything inside the command's data cannot be stored. */
export function assertStorable(value: unknown, fallback = 'body'): void {
  const found = findUnstorable(value, MAX_COMMAND_DEPTH);
  if (found) throw unstorableInput(describePath(found.path, fallback), unstorableMessage(found, fallback));
}

/** Throws invalid_body unless `value` (when given) fits an int4 column. */
export function assertInt4(value: number | null | undefined, field: string): void {
  if (typeof value === 'number' && !isInt4(value)) {
    throw unstorableInput(field, `${field} must be a whole number from ${INT4_MIN} to ${INT4_MAX}`);
  }
}

/** Throws `code` (invalid_body unless given) unless the instant (when given) lies in years 1 to 9999. */
export function assertStorableInstant(
  value: Date | string | null | undefined,
  field: string,
  code = 'invalid_body',
): void {
  if (value === null || value === undefined || isStorableInstant(value)) return;
  const message = `${field} must be a date in the years ${MIN_YEAR} to ${MAX_YEAR}`;
  throw new DomainError(code, message, { issues: [{ path: field, message }] });
}
