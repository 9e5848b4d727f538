/**
 * Small builders for the JSON Schemas of infra/asyncapi/onboarding-events.yaml, so that
 * the event catalog reads like the event types it documents.
 */
export type JsonSchema = { [keyword: string]: unknown };

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const string = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const text: JsonSchema = string();
export const nonEmpty: JsonSchema = string({ minLength: 1 });
export const uuid: JsonSchema = string({ format: 'uuid' });
export const timestamp: JsonSchema = string({ format: 'date-time' });
export const date: JsonSchema = string({ format: 'date' });
export const integer = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
export const boolean: JsonSchema = { type: 'boolean' };
/** Any JSON value. */
export const anyValue: JsonSchema = {};
export const jsonObject: JsonSchema = { type: 'object' };
export const constant = (value: string | number | boolean): JsonSchema => ({
  type: typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value,
  const: value,
});
export const oneOfValues = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
export const arrayOf = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
  type: 'array',
  items,
  ...extra,
});

/** The schema, or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  const { type, ...rest } = schema;
  if (typeof type === 'string' && !('enum' in rest) && !('const' in rest))
    return { type: [type, 'null'], ...rest };
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * An object with `required` properties (all present, maybe null where the schema says so)
 * and `optional` ones. Further properties are allowed: consumers must ignore fields they
 * do not know, so that adding a field to an event is not a breaking change.
 */
export function object(
  required: Record<string, JsonSchema>,
  optional: Record<string, JsonSchema> = {},
): JsonSchema {
  const names = Object.keys(required);
  return {
    type: 'object',
    ...(names.length > 0 ? { required: names } : {}),
    properties: { ...required, ...optional },
  };
}

/** `object` over a shared base (allOf keeps the base visible in the document). */
export const extend = (
  base: string,
  required: Record<string, JsonSchema>,
  optional: Record<string, JsonSchema> = {},
): JsonSchema => ({ allOf: [ref(base), object(required, optional)] });
