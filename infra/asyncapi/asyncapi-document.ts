import { CE_SPECVERSION, CONTENT_TYPE, DEFAULT_CE_SOURCE } from '../../shared/subscriptions/cloud-events.ts';
import { DEFAULT_TOPIC } from '../../shared/subscriptions/kafka.ts';
import { EVENT_CATALOG, SHARED_SCHEMAS, type EventTypeDoc } from './event-catalog.ts';
import { nonEmpty, nullable, ref, string, timestamp, uuid, type JsonSchema } from './json-schema.ts';

/** The broker host in the document; test/helpers/mokapi.ts swaps it for its own port. */
export const DOCUMENT_BROKER = 'localhost:9092';

const EVENT_TYPE = '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$';
const DECIMAL = '^[0-9]+$';

const CLOUD_EVENT_HEADERS: JsonSchema = {
  type: 'object',
  description:
    'CloudEvents 1.0 attributes in Kafka binary content mode (one header per attribute, `ce_` prefix, UTF-8 text).',
  required: [
    'ce_specversion',
    'ce_id',
    'ce_source',
    'ce_type',
    'ce_time',
    'ce_subject',
    'content-type',
    'ce_position',
    'ce_revision',
    'ce_metadata',
  ],
  properties: {
    ce_specversion: string({ const: CE_SPECVERSION }),
    ce_id: { ...uuid, description: 'Event id; unique, the same on every redelivery. Deduplicate on it.' },
    ce_source: {
      ...nonEmpty,
      description: `The producing service, \`${DEFAULT_CE_SOURCE}\` unless CLOUDEVENTS_SOURCE says otherwise.`,
    },
    ce_type: string({ pattern: EVENT_TYPE, description: 'The event type.' }),
    ce_time: { ...timestamp, description: 'When the event was recorded in the log.' },
    ce_subject: {
      ...nonEmpty,
      description: 'The stream the event belongs to (also the Kafka key), e.g. `onboarding-<id>`.',
    },
    'content-type': string({ const: CONTENT_TYPE }),
    ce_position: string({
      pattern: DECIMAL,
      description: 'Extension: position in the global log (decimal; grows, with gaps).',
    }),
    ce_revision: string({ pattern: DECIMAL, description: 'Extension: 0-based revision within the stream.' }),
    ce_metadata: string({
      pattern: '^\\{',
      description:
        'Extension: the event metadata as a JSON object (command_id, request_id, idempotency_key, api_key_id, causation_id, correlation_id, ...).',
    }),
    ce_correlationid: string({ description: 'Extension: metadata.correlation_id, when set.' }),
    ce_causationid: string({ description: 'Extension: metadata.causation_id, when set.' }),
  },
};

const key = {
  kafka: {
    key: {
      ...nonEmpty,
      description: "The stream id: one stream's events share a partition and keep their order.",
    },
    bindingVersion: '0.5.0',
  },
};

/** The common shape of every event's data (what a type not documented yet must meet). */
const EVENT_DATA: JsonSchema = {
  type: 'object',
  description: [
    "The event's `data`, as JSON. Its schema depends on ce_type: see the message of that",
    "name under components/messages (one per documented type). Every event's data is an",
    'object with snake_case property names; ids of teams, clients and onboardings are uuids,',
    'and `*_at` properties are RFC 3339 timestamps (or null, or a list of them). Consumers',
    'ignore properties they do not know. Personal values may be sealed (SealedValue) and are',
    'published as they are stored.',
  ].join('\n'),
  propertyNames: { pattern: '^[a-z][a-z0-9_]*$' },
  properties: {
    team_id: nullable(uuid),
    onboarding_id: uuid,
    client_id: uuid,
  },
  patternProperties: {
    _at$: { anyOf: [nullable(timestamp), { type: 'array', items: timestamp }] },
  },
};

function typedMessage(type: string, doc: EventTypeDoc): JsonSchema {
  return {
    name: type,
    title: type,
    summary: doc.summary,
    description: `Stream (ce_subject and Kafka key): \`${doc.stream}\`.`,
    contentType: CONTENT_TYPE,
    headers: {
      allOf: [ref('CloudEventHeaders')],
      type: 'object',
      required: ['ce_type'],
      properties: { ce_type: string({ const: type }) },
    },
    payload: ref(type),
    bindings: key,
  };
}

/** The AsyncAPI 3.0 document of the event stream, as a plain object. */
export function buildAsyncApiDocument(): JsonSchema {
  const types = Object.keys(EVENT_CATALOG).sort() as (keyof typeof EVENT_CATALOG)[];
  const documented = types.map((type) => [type, EVENT_CATALOG[type]!] as const);
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Client onboarding events',
      version: '1.0.0',
      description: [
        "Every event of the client onboarding service's log, published by its relay",
        '(services/relay) to one Kafka topic as CloudEvents 1.0 in binary content mode:',
        "the attributes are `ce_*` headers, the value is the event's data as JSON, and the",
        'key is the stream id. Delivery is at least once, in log order per key: deduplicate',
        'by ce_id.',
        '',
        'Generated from infra/asyncapi/event-catalog.ts by',
        '`npx tsx infra/asyncapi/generate-asyncapi.ts`; do not edit by hand.',
        '',
        'The channel has one message, OnboardingEvent: the envelope every event meets (this is',
        'what a broker that validates messages, such as mokapi in the tests, checks). The data',
        'of each documented ce_type is given by the message of the same name under',
        'components/messages; a type not documented yet still meets OnboardingEvent.',
      ].join('\n'),
    },
    defaultContentType: CONTENT_TYPE,
    servers: {
      kafka: {
        host: DOCUMENT_BROKER,
        protocol: 'kafka',
        description: 'Any broker of KAFKA_BROKERS (localhost:9092 is the docker-compose Kafka).',
      },
    },
    channels: {
      onboardingEvents: {
        address: DEFAULT_TOPIC,
        title: 'Onboarding events',
        description: `Topic \`${DEFAULT_TOPIC}\` (KAFKA_TOPIC); created by the relay when missing, with KAFKA_TOPIC_PARTITIONS (6) partitions.`,
        servers: [{ $ref: '#/servers/kafka' }],
        messages: { onboardingEvent: { $ref: '#/components/messages/OnboardingEvent' } },
        bindings: { kafka: { partitions: 6, bindingVersion: '0.5.0' } },
      },
    },
    operations: {
      publishEvents: {
        action: 'send',
        summary: 'The relay publishes every event of the log, in log order.',
        description:
          "Readers (the service's own consumer groups, analysts) subscribe to the channel. No receive operation is listed: the document describes the publishing service (and mokapi 0.52 fails fetches on a channel with a receive operation).",
        channel: { $ref: '#/channels/onboardingEvents' },
        messages: [{ $ref: '#/channels/onboardingEvents/messages/onboardingEvent' }],
      },
    },
    components: {
      messages: {
        OnboardingEvent: {
          name: 'OnboardingEvent',
          title: 'An event of the log',
          summary: 'Any event; ce_type names it and selects the schema of its data.',
          contentType: CONTENT_TYPE,
          headers: ref('CloudEventHeaders'),
          payload: ref('EventData'),
          bindings: key,
        },
        ...Object.fromEntries(documented.map(([type, doc]) => [type, typedMessage(type, doc)])),
      },
      schemas: {
        CloudEventHeaders: CLOUD_EVENT_HEADERS,
        EventData: EVENT_DATA,
        ...SHARED_SCHEMAS,
        ...Object.fromEntries(
          documented.map(([type, doc]) => [type, { description: doc.summary, ...doc.data }]),
        ),
      },
    },
  };
}

/** The documented event types, sorted. */
export const documentedEventTypes = (): string[] => Object.keys(EVENT_CATALOG).sort();
