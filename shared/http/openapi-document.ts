import { WELL_FORMED_REQUEST_ID } from './request-id.ts';
import { exampleFor } from './openapi-examples.ts';
import { hoistComponents } from './openapi-components.ts';

type JsonSchema = Record<string, unknown>;
type Operation = JsonSchema & { responses?: Record<string, JsonSchema> };
export type SecurityRequirement = Record<string, string[]>;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** One API of the document: the paths under `prefix` share a tag, a security and their headers. */
export interface ApiGroup {
  prefix: string;
  tag: string;
  description: string;
  /** Security of its operations that set none themselves. */
  security: SecurityRequirement[];
  /** Its answers carry RateLimit and RateLimit-Policy (shared/http/rate-limit-headers.ts). */
  rateLimitHeaders?: boolean;
}

/**
 * What the route schemas cannot say by themselves, supplied by the composition of the
 * service. Each operation's operationId and description come from its route's schema; that
 * it is idempotent and its multipart body from its route's config (./openapi-3-1-schema.ts).
 */
export interface DocumentPolish {
  groups: readonly ApiGroup[];
  /** Named schemas (JSON Schema 2020-12): equal inline schemas become `$ref`s to them. */
  components: Readonly<Record<string, JsonSchema>>;
  /** More components.schemas, taken as they are (the webhooks' payloads). */
  extraSchemas?: Readonly<Record<string, JsonSchema>>;
  /** The OpenAPI 3.1 `webhooks` section. */
  webhooks?: Readonly<Record<string, JsonSchema>>;
  securitySchemes: Readonly<Record<string, JsonSchema>>;
  servers: readonly JsonSchema[];
}

export const RESPONSE_HEADERS: Record<string, JsonSchema> = {
  RequestId: {
    description:
      "The request's id: the caller's X-Request-Id when it is 1 to 128 visible ASCII characters and not shaped like a secret (64 hex digits, cos_… or whsec_…), else a new UUID; the same as `request_id` of an error body and of the service's log lines. Absent on a 429 rate_limited answer of the public API.",
    schema: { type: 'string', pattern: WELL_FORMED_REQUEST_ID.source },
  },
  IdempotentReplayed: {
    description:
      'true when this is the stored answer of an earlier request with the same Idempotency-Key (nothing ran again).',
    schema: { type: 'string', enum: ['true'] },
  },
  RetryAfter: {
    description: 'Seconds until the rate-limit window resets (the public API: 1 to 60).',
    schema: { type: 'integer', minimum: 1 },
  },
  RateLimitPolicy: {
    description:
      'The rate-limit policies the request was counted against (IETF draft-ietf-httpapi-ratelimit-headers): per policy its quota `q` and window `w` in seconds, such as `"per-ip";q=100;w=60, "per-key";q=200;w=60, "per-key-and-ip";q=100;w=60` on the public API (without a valid key only "per-ip"), `"per-ip";q=300;w=60` on the client portal. Absent while RATE_LIMITS is off.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'What is left of each policy of RateLimit-Policy: remaining requests `r` and seconds `t` until the window resets, such as `"per-ip";r=99;t=42, "per-key";r=199;t=42, "per-key-and-ip";r=99;t=42`.',
    schema: { type: 'string' },
  },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const REQUEST_ID_PARAMETER: JsonSchema = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description:
    'Your id for this request, kept when it is 1 to 128 visible ASCII characters and not shaped like a secret (64 hex digits, cos_… or whsec_…; else the service makes one); it comes back in the X-Request-Id header and in error bodies.',
  schema: { type: 'string', pattern: WELL_FORMED_REQUEST_ID.source },
};

/** The code an error answer documents: `code x` or `(x)` in its description, else one per status. */
function errorCode(status: string, description: string): string {
  const named =
    /\bcode:? ([a-z]+(?:_[a-z]+)+)/.exec(description) ?? /\(([a-z]+(?:_[a-z]+)+)/.exec(description);
  if (named) return named[1]!;
  const byStatus: Record<string, string> = {
    '400': 'invalid_body',
    '401': 'unauthorized',
    '403': 'forbidden',
    '404': 'not_found',
    '409': 'invalid_state',
    '410': 'client_erasure_pending',
    '413': 'payload_too_large',
    '422': 'link_blocked',
    '429': 'rate_limited',
    '500': 'internal_error',
    '503': 'service_unavailable',
  };
  return byStatus[status] ?? 'error';
}

/** The first alternative of a description, as an error text ("a | b" → "a"; "text (code x)" → "text"). */
function errorText(description: string): string {
  const first = description.split(/ \| |; |\. /)[0] ?? description;
  const text = first
    .replace(/\s*\(.*$/, '')
    .replace(/^Default Response$/, 'Error')
    .trim();
  return text.length > 0 && text.length <= 120 ? text : 'Request refused';
}

function example(schema: unknown, status: string, description: string, resolve: (ref: string) => unknown) {
  const value = exampleFor(schema, resolve);
  if (!isObject(value) || !status.match(/^[45]/) || !('error' in value)) return value;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const free = (name: string) => {
    const property = properties[name];
    return isObject(property) && !('const' in property) && !('enum' in property);
  };
  const errorValue: JsonSchema = { ...value };
  if (free('error')) errorValue.error = errorText(description);
  if (free('code')) errorValue.code = errorCode(status, description);
  if (free('message')) errorValue.message = errorText(description);
  if ('retryable' in value) errorValue.retryable = status.startsWith('5');
  if (free('request_id')) errorValue.request_id = '3f6c1c1e-8a4b-4c7e-9d2a-5b1e0f7a9c21';
  return errorValue;
}

function withExamples(
  content: unknown,
  status: string,
  description: string,
  resolve: (ref: string) => unknown,
) {
  if (!isObject(content)) return content;
  const result: JsonSchema = {};
  for (const [type, media] of Object.entries(content)) {
    if (!isObject(media) || 'example' in media || 'examples' in media) {
      result[type] = media;
      continue;
    }
    const value = example(media.schema, status, description, resolve);
    result[type] = value === undefined ? media : { ...media, example: value };
  }
  return result;
}

function polishOperation(
  operation: Operation,
  group: ApiGroup | undefined,
  resolve: (ref: string) => unknown,
): Operation {
  const {
    operationId,
    description,
    'x-idempotent': idempotent,
    'x-multipart-body': multipart,
    ...rest
  } = operation;
  const result: Operation = { ...rest };
  // After the responses: where the document has always had them (it stays byte for byte the same).
  if (operationId !== undefined) result.operationId = operationId;
  if (description !== undefined) result.description = description;
  if (group) {
    result.tags = [group.tag];
    if (result.security === undefined || (Array.isArray(result.security) && result.security.length === 0)) {
      result.security = group.security;
    }
  }
  result.parameters = [...((result.parameters as unknown[] | undefined) ?? []), REQUEST_ID_PARAMETER];
  if (isObject(multipart) && !result.requestBody) {
    result.requestBody = { required: true, content: { 'multipart/form-data': { schema: multipart } } };
  }
  if (isObject(result.requestBody)) {
    result.requestBody = {
      ...result.requestBody,
      content: withExamples(result.requestBody.content, 'request', '', resolve),
    };
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(result.responses ?? {})) {
    const text = typeof response.description === 'string' ? response.description : '';
    const headers: JsonSchema = { ...(isObject(response.headers) ? response.headers : {}) };
    headers['X-Request-Id'] = headerRef('RequestId');
    if (group?.rateLimitHeaders) {
      headers['RateLimit-Policy'] = headerRef('RateLimitPolicy');
      headers.RateLimit = headerRef('RateLimit');
    }
    if (status === '429') headers['Retry-After'] = headerRef('RetryAfter');
    if (idempotent === true && status.startsWith('2')) {
      headers['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
    }
    responses[status] = {
      ...response,
      description: text === 'Default Response' ? 'Success' : text,
      headers,
      ...(response.content ? { content: withExamples(response.content, status, text, resolve) } : {}),
    };
  }
  result.responses = responses;
  return result;
}

/**
 * Makes the generated document one that generators and linters take well: a stable
 * operationId, a description, examples for every request body and answer, the response
 * headers, tags, security and servers per API, named component schemas and the webhooks.
 * Pure: the same document and polish give the same result.
 */
export function polishDocument(document: JsonSchema, polish: DocumentPolish): JsonSchema {
  const schemas: Record<string, unknown> = { ...polish.components, ...(polish.extraSchemas ?? {}) };
  const resolve = (ref: string) => schemas[ref.replace('#/components/schemas/', '')];
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    const group = polish.groups.find((candidate) => path.startsWith(`${candidate.prefix}/`));
    const polished: JsonSchema = { ...item };
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      polished[method] = polishOperation(operation, group, resolve);
    }
    paths[path] = polished;
  }
  const components = isObject(document.components) ? document.components : {};
  const withComponents: JsonSchema = {
    ...document,
    servers: [...polish.servers],
    tags: polish.groups.map((group) => ({ name: group.tag, description: group.description })),
    paths,
    components: {
      ...components,
      securitySchemes: { ...polish.securitySchemes },
      headers: RESPONSE_HEADERS,
    },
  };
  const hoisted = hoistComponents(withComponents, { ...polish.components });
  const hoistedComponents = isObject(hoisted.components) ? hoisted.components : {};
  const hoistedSchemas = isObject(hoistedComponents.schemas) ? hoistedComponents.schemas : {};
  return {
    ...hoisted,
    ...(polish.webhooks ? { webhooks: polish.webhooks } : {}),
    components: {
      ...hoistedComponents,
      schemas: { ...hoistedSchemas, ...(polish.extraSchemas ?? {}) },
    },
  };
}
