import { buildAsyncApiDocument } from '../../infra/asyncapi/asyncapi-document.ts';
import { AUDIT_EVENT_TYPES } from '../events/index.ts';
import { PUBLIC_EVENT_TYPES } from '../events/contract/public-event-types.ts';
import { ONBOARDING_STATUSES } from '../onboardings/index.ts';
import { exampleFor } from '../../shared/http/openapi-examples.ts';
import { DELIVERED_LOG_TYPES, WEBHOOK_EVENT_TYPES } from './contract/webhook-event-types.ts';

type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The onboarding at the moment of the event, first in every payload's `data` (./hook-payload.ts). */
const MOMENT: Record<string, JsonSchema> = {
  onboarding_id: { type: 'string', format: 'uuid' },
  client_id: { type: 'string', format: 'uuid' },
  template_id: { type: 'string', format: 'uuid' },
  status: { type: 'string', enum: [...ONBOARDING_STATUSES] },
  progress_pct: { type: 'integer', minimum: 0, maximum: 100 },
};

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** Every property an AsyncAPI event schema gives, through its allOf and $refs. */
function propertiesOf(schema: unknown, resolve: (ref: string) => unknown): Record<string, unknown> {
  if (!isObject(schema)) return {};
  if (typeof schema.$ref === 'string') return propertiesOf(resolve(schema.$ref), resolve);
  const own = isObject(schema.properties) ? schema.properties : {};
  const parts = Array.isArray(schema.allOf) ? schema.allOf : [];
  return Object.assign({}, ...parts.map((part) => propertiesOf(part, resolve)), own);
}

/** A schema for a value of the feed's details that the event's data does not hold as such. */
function schemaOfValue(value: unknown): JsonSchema {
  if (value === null) return {};
  if (Array.isArray(value)) return { type: 'array' };
  if (typeof value === 'number') return { type: 'number' };
  return { type: typeof value };
}

/** Inlines the $refs of an AsyncAPI schema (its shared schemas hold no cycles). */
function inline(schema: unknown, resolve: (ref: string) => unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inline(item, resolve, depth));
  if (!isObject(schema) || depth > 10) return schema;
  if (typeof schema.$ref === 'string') return inline(resolve(schema.$ref), resolve, depth + 1);
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, inline(value, resolve, depth)]),
  );
}

/**
 * The body of a hook or signed-webhook delivery of one event type: `data` holds the
 * onboarding's moment, then the details the events feed gives for that type, taken by the
 * feed's own mapping (AUDIT_EVENT_TYPES) from an example of the event's data as the
 * AsyncAPI document describes it; each detail keeps the AsyncAPI schema of the property
 * of the same name.
 */
function payloadSchema(type: string, logType: string, asyncSchemas: JsonSchema): JsonSchema {
  const resolve = (ref: string) => asyncSchemas[ref.replace('#/components/schemas/', '')];
  const eventSchema = asyncSchemas[logType];
  const eventExample = exampleFor(eventSchema, resolve);
  const mapping = AUDIT_EVENT_TYPES[logType];
  const details = mapping && isObject(eventExample) ? mapping.details(eventExample) : {};
  const eventProperties = propertiesOf(eventSchema, resolve);
  const properties: Record<string, unknown> = { ...MOMENT };
  for (const [name, value] of Object.entries(details)) {
    if (name in MOMENT) continue;
    properties[name] =
      name in eventProperties ? inline(eventProperties[name], resolve) : schemaOfValue(value);
  }
  const schema: JsonSchema = {
    type: 'object',
    description:
      `The body of a delivery of ${type}: ${String(isObject(eventSchema) ? (eventSchema.description ?? '') : '')}`.trim(),
    required: ['id', 'event', 'timestamp', 'data'],
    properties: {
      id: { type: 'string', format: 'uuid', description: "The event's id (as in GET /api/v1/events)." },
      event: { type: 'string', const: type },
      timestamp: { type: 'string', description: 'When the event occurred: UTC, microseconds, offset.' },
      data: { type: 'object', properties },
    },
  };
  return schema;
}

const SIGNATURE_HEADERS = {
  hook: {
    name: 'webhook-signature',
    description: "`v1,<base64 HMAC-SHA256>` with the team's hook signing secret (Standard Webhooks).",
  },
  endpoint: {
    name: 'X-Service-Signature',
    description: "`v1,<base64 HMAC-SHA256>` with the endpoint's own secret (Standard Webhooks signing).",
  },
};

function webhookOperation(
  type: string,
  kind: 'hook' | 'endpoint',
  schemaName: string,
  example: unknown,
): JsonSchema {
  const signature = SIGNATURE_HEADERS[kind];
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return {
    post: {
      operationId: `${kind === 'hook' ? 'hook' : 'signedWebhook'}${pascal(type)}`,
      summary:
        kind === 'hook'
          ? `Hook delivery of ${type} (POST /api/v1/automation/subscribe)`
          : `Signed webhook delivery of ${type} (webhook endpoints)`,
      description:
        'POSTed to the target URL. Verify the signature over `webhook-id.webhook-timestamp.body` and deduplicate on webhook-id (the same on every retry and replay). Any 2xx within 10 seconds counts as delivered; other answers are retried.',
      tags: ['webhooks'],
      security: [{}],
      parameters: [
        header('webhook-id', 'One per event and target; the same on every retry and replay.'),
        header('webhook-timestamp', 'Unix seconds of this attempt.'),
        header(signature.name, signature.description),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` }, example },
        },
      },
      responses: {
        '2XX': { description: 'Delivered.' },
        '4XX': { description: 'Refused; the delivery is retried on its schedule.' },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 `webhooks` of the service (what swagger-ui shows at /docs): the payload
 * of every hook event type (hook subscriptions) and signed-webhook event type (webhook
 * endpoints), their schemas derived from the AsyncAPI document's event schemas.
 */
export function hookPayloadDocument(): {
  schemas: Record<string, JsonSchema>;
  webhooks: Record<string, JsonSchema>;
} {
  const asyncApi = buildAsyncApiDocument() as { components: { schemas: JsonSchema } };
  const asyncSchemas = asyncApi.components.schemas;
  const schemas: Record<string, JsonSchema> = {};
  const webhooks: Record<string, JsonSchema> = {};
  WEBHOOK_EVENT_TYPES.forEach((type, index) => {
    const name = `${pascal(type)}Payload`;
    const schema = payloadSchema(type, DELIVERED_LOG_TYPES[index]!, asyncSchemas);
    schemas[name] = schema;
    const example = exampleFor(schema);
    if ((PUBLIC_EVENT_TYPES as readonly string[]).includes(type)) {
      webhooks[`hook ${type}`] = webhookOperation(type, 'hook', name, example);
    }
    webhooks[`signed webhook ${type}`] = webhookOperation(type, 'endpoint', name, example);
  });
  return { schemas, webhooks };
}
