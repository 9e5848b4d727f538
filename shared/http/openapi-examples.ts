type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const EXAMPLE_UUID = '3f6c1c1e-8a4b-4c7e-9d2a-5b1e0f7a9c21';
const EXAMPLE_MOMENT = '2026-01-15T09:30:00.000Z';

/** Values tried, in order, against a string's `pattern` (the document's patterns are few and fixed). */
const PATTERN_CANDIDATES = [
  '123456',
  EXAMPLE_UUID,
  '2026-01-15',
  '2026-01',
  EXAMPLE_MOMENT,
  '#1a73e8',
  'a'.repeat(64),
  '0123456789abcdef'.repeat(4),
  'onboarding-2026-01-15',
  'example',
  'Example',
  'en-US',
  'clients:read',
  'https://hooks.example.com/onboarding',
  'ada@example.com',
  'whsec_' + 'A'.repeat(43) + '=',
];

/** A plain string that reads well for a property of this name. */
function namedString(name: string): string {
  if (/email/.test(name)) return 'ada@example.com';
  if (/(^|_)(url|target_url|link)$/.test(name)) return 'https://hooks.example.com/onboarding';
  if (/(_at|_on)$/.test(name) || name === 'now' || name === 'since' || name === 'timestamp')
    return EXAMPLE_MOMENT;
  if (/(^|_)id$/.test(name)) return EXAMPLE_UUID;
  if (/name$/.test(name)) return 'Ada Lovelace';
  if (name === 'token') return '0123456789abcdef'.repeat(4);
  return 'example';
}

function fitLength(value: string, schema: JsonSchema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const padded = value.length < min ? value + 'x'.repeat(min - value.length) : value;
  return padded.length > max ? padded.slice(0, max) : padded;
}

function exampleString(schema: JsonSchema, name: string): string | undefined {
  const format = schema.format;
  if (format === 'uuid') return EXAMPLE_UUID;
  if (format === 'date-time') return EXAMPLE_MOMENT;
  if (format === 'date') return '2026-01-15';
  if (format === 'email') return 'ada@example.com';
  if (format === 'uri' || format === 'url') return 'https://hooks.example.com/onboarding';
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    return PATTERN_CANDIDATES.find((candidate) => pattern.test(fitLength(candidate, schema)));
  }
  return fitLength(namedString(name), schema);
}

function exampleNumber(schema: JsonSchema, integer: boolean): number {
  let value = 1;
  if (typeof schema.minimum === 'number') value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
    value = schema.exclusiveMinimum + 1;
  }
  if (typeof schema.maximum === 'number') value = Math.min(value, schema.maximum);
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) {
    value = schema.exclusiveMaximum - 1;
  }
  return integer ? Math.ceil(value) : value;
}

const NO_EXAMPLE = Symbol('no example');

type Resolve = (ref: string) => unknown;

function build(schema: unknown, name: string, depth: number, resolve: Resolve): unknown {
  if (!isObject(schema) || depth > 12) return NO_EXAMPLE;
  if (typeof schema.$ref === 'string') return build(resolve(schema.$ref), name, depth + 1, resolve);
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => build(part, name, depth + 1, resolve));
    if (parts.some((part) => part === NO_EXAMPLE)) return NO_EXAMPLE;
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts[0];
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const members = schema[combinator];
    if (Array.isArray(members)) {
      // The first member that yields a value, null last.
      const isNull = (member: unknown) => isObject(member) && member.type === 'null';
      for (const member of [...members.filter((m) => !isNull(m)), ...members.filter(isNull)]) {
        const value = build(member, name, depth + 1, resolve);
        if (value !== NO_EXAMPLE) return value;
      }
      return NO_EXAMPLE;
    }
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  if (type === 'string' && types.includes('null') && typeof schema.pattern === 'string') {
    return exampleString(schema, name) ?? null;
  }
  if (type === 'object' || (type === undefined && isObject(schema.properties))) {
    const result: Record<string, unknown> = {};
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [key, property] of Object.entries(properties)) {
      const value = build(property, key, depth + 1, resolve);
      if (value !== NO_EXAMPLE) result[key] = value;
      else if (Array.isArray(schema.required) && schema.required.includes(key)) return NO_EXAMPLE;
    }
    return result;
  }
  if (type === 'array') {
    const item = build(schema.items, name.replace(/s$/, ''), depth + 1, resolve);
    const count = typeof schema.minItems === 'number' ? schema.minItems : 1;
    if (item === NO_EXAMPLE) return count === 0 ? [] : NO_EXAMPLE;
    return schema.uniqueItems && count > 1
      ? NO_EXAMPLE
      : Array.from({ length: Math.max(1, count) }, () => item);
  }
  if (type === 'string') return exampleString(schema, name) ?? NO_EXAMPLE;
  if (type === 'integer' || type === 'number') return exampleNumber(schema, type === 'integer');
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return NO_EXAMPLE;
}

/**
 * An example value that the JSON schema accepts (`resolve` gives the target of a `$ref`): the schema's own
 * example, const, default or first enum value where it has one, otherwise a value made
 * from its type, format, pattern and bounds (and, for plain strings, the property's
 * name). Undefined when no value can be made (an unknown pattern).
 */
export function exampleFor(schema: unknown, resolve: Resolve = () => undefined, name = ''): unknown {
  const value = build(schema, name, 0, resolve);
  return value === NO_EXAMPLE ? undefined : value;
}
