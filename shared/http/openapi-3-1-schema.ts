import type { FastifyContextConfig } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;
type Transform = typeof jsonSchemaTransform;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * zod schemas become JSON schemas in the OpenAPI 3.0 dialect (`nullable: true`, boolean
 * `exclusiveMinimum`), while the document is OpenAPI 3.1 (JSON Schema 2020-12), which has
 * neither. @fastify/swagger only converts `nullable` next to a `type`, so a nullable union
 * or enum would be documented as never null. This rewrites one schema, at every depth,
 * into the 3.1 forms that accept exactly what the zod schema accepts.
 */
export function toJsonSchema2020(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema2020);
  if (!isObject(schema)) return schema;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) result[key] = toJsonSchema2020(value);
  if (result.exclusiveMinimum === true) {
    result.exclusiveMinimum = result.minimum;
    delete result.minimum;
  }
  if (result.exclusiveMaximum === true) {
    result.exclusiveMaximum = result.maximum;
    delete result.maximum;
  }
  if (result.exclusiveMinimum === false) delete result.exclusiveMinimum;
  if (result.exclusiveMaximum === false) delete result.exclusiveMaximum;
  // A boolean only: inside `properties`, `nullable` may be the name of a field.
  if (typeof result.nullable !== 'boolean') return result;
  const nullable = result.nullable;
  delete result.nullable;
  if (!nullable) return result;
  if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null];
  if (result.type !== undefined) {
    const types = Array.isArray(result.type) ? result.type : [result.type];
    if (!types.includes('null')) result.type = [...types, 'null'];
    return result;
  }
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const members = result[combinator];
    if (Array.isArray(members)) {
      result[combinator] = [...members, { type: 'null' }];
      return result;
    }
  }
  // Nullable without a type (such as unknown().nullable()) already admits null.
  return result;
}

/** Response schemas whose body is a file's bytes, of whatever type the file has. */
const binaryResponses = new WeakSet<object>();

/**
 * A response that is a file's bytes: the document says any content type (`*\/*`, a binary
 * string) instead of JSON, so that a download answering image/png conforms to it.
 */
export function binaryResponse(description: string): z.ZodTypeAny {
  const schema = z.any().describe(description);
  binaryResponses.add(schema);
  return schema;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route accepts Idempotency-Key and answers a replay with Idempotent-Replayed: true. */
    idempotent?: boolean;
    /** The JSON schema of a multipart/form-data body that the route reads as a stream. */
    multipartBody?: JsonSchema;
  }
}

/**
 * What a route's config says about its operation, as extensions the document's polish
 * turns into headers and a request body (./openapi-document.ts, polishOperation).
 */
function routeExtensions(input: Parameters<Transform>[0]): JsonSchema {
  const config = (input as { route?: { config?: FastifyContextConfig } }).route?.config;
  return {
    ...(config?.idempotent ? { 'x-idempotent': true } : {}),
    ...(config?.multipartBody ? { 'x-multipart-body': config.multipartBody } : {}),
  };
}

/** fastify-type-provider-zod's transform, with every JSON schema it makes in the 3.1 dialect. */
export const jsonSchema2020Transform: Transform = (input) => {
  const { schema, url } = jsonSchemaTransform(input);
  if (!isObject(schema) || schema.hide) return { schema, url };
  const converted: JsonSchema = { ...schema, ...routeExtensions(input) };
  for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
    if (converted[part] !== undefined) converted[part] = toJsonSchema2020(converted[part]);
  }
  if (isObject(converted.response)) {
    const responses: JsonSchema = {};
    const original = (input.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
    for (const [status, response] of Object.entries(converted.response)) {
      const source = original[status];
      responses[status] =
        isObject(source) && binaryResponses.has(source)
          ? {
              description: (response as JsonSchema).description,
              content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
            }
          : toJsonSchema2020(response);
    }
    converted.response = responses;
  }
  return { schema: converted as typeof schema, url };
};

/**
 * One zod schema as the document's JSON schema, through the very conversion the routes'
 * schemas take (so a named component equals the inline schemas it names).
 */
export function zodToJsonSchema2020(schema: unknown): Record<string, unknown> {
  const { schema: converted } = jsonSchemaTransform({
    schema: { body: schema },
    url: '/',
  } as Parameters<Transform>[0]);
  return toJsonSchema2020((converted as { body: unknown }).body) as Record<string, unknown>;
}
