import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { EventMetadata, RecordedEvent } from '../event-store/event-store.ts';

/**
 * How an event of the log travels on Kafka: CloudEvents 1.0, Kafka protocol binding,
 * binary content mode (infra/asyncapi/onboarding-events.yaml describes it).
 *
 * - key: the stream id, so one stream's events stay in one partition, in order;
 * - value: the event's `data` as JSON, untouched (sealed personal values stay sealed);
 * - headers: the CloudEvents attributes as `ce_<name>`, and `content-type`.
 *
 * Required attributes: ce_specversion `1.0`, ce_id (event id, the dedupe key),
 * ce_source (`/client-onboarding` unless configured), ce_type (event type). Optional ones
 * always set: ce_time (when the event was recorded), ce_subject (stream id). Extension
 * attributes (lowercase letters and digits only, as CloudEvents requires):
 * ce_position (global log position, decimal), ce_revision (0-based revision in the
 * stream), ce_metadata (the event's metadata object as JSON), and, copied from the
 * metadata when present, ce_correlationid and ce_causationid.
 */
export const CE_SPECVERSION = '1.0';
export const DEFAULT_CE_SOURCE = '/client-onboarding';
export const CONTENT_TYPE = 'application/json';

export function toKafkaMessage(event: RecordedEvent, source = DEFAULT_CE_SOURCE): Message {
  const headers: IHeaders = {
    ce_specversion: CE_SPECVERSION,
    ce_id: event.id,
    ce_source: source,
    ce_type: event.type,
    ce_time: event.recordedAt.toISOString(),
    ce_subject: event.streamId,
    'content-type': CONTENT_TYPE,
    ce_position: String(event.position),
    ce_revision: String(event.revision),
    ce_metadata: JSON.stringify(event.metadata ?? {}),
  };
  const { correlation_id: correlationId, causation_id: causationId } = event.metadata ?? {};
  if (typeof correlationId === 'string' && correlationId !== '') headers.ce_correlationid = correlationId;
  if (typeof causationId === 'string' && causationId !== '') headers.ce_causationid = causationId;
  return { key: event.streamId, value: JSON.stringify(event.data), headers };
}

export class NotAnEventMessageError extends Error {
  constructor(reason: string) {
    super(`Not an event message of the relay: ${reason}`);
    this.name = 'NotAnEventMessageError';
  }
}

/** A header as text (kafkajs hands Buffers to consumers). */
export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/** The RecordedEvent a relay message carries; throws NotAnEventMessageError for anything else. */
export function fromKafkaMessage(message: Pick<KafkaMessage, 'headers' | 'key' | 'value'>): RecordedEvent {
  const header = (name: string) => headerText(message.headers, name);
  const required = (name: string) => {
    const value = header(name);
    if (value === undefined || value === '') throw new NotAnEventMessageError(`no ${name} header`);
    return value;
  };
  if (required('ce_specversion') !== CE_SPECVERSION) {
    throw new NotAnEventMessageError(`ce_specversion ${header('ce_specversion')}`);
  }
  const recordedAt = new Date(required('ce_time'));
  if (Number.isNaN(recordedAt.getTime())) throw new NotAnEventMessageError('ce_time is not a time');
  const position = required('ce_position');
  const revision = required('ce_revision');
  if (!/^\d+$/.test(position) || !/^\d+$/.test(revision)) {
    throw new NotAnEventMessageError('ce_position and ce_revision must be decimal integers');
  }
  let data: unknown;
  let metadata: EventMetadata;
  try {
    data = message.value === null ? null : JSON.parse(message.value.toString());
    metadata = JSON.parse(header('ce_metadata') ?? '{}') as EventMetadata;
  } catch {
    throw new NotAnEventMessageError('value or ce_metadata is not JSON');
  }
  return {
    id: required('ce_id'),
    streamId: header('ce_subject') ?? message.key?.toString() ?? '',
    revision: BigInt(revision),
    position: BigInt(position),
    type: required('ce_type'),
    data,
    metadata,
    recordedAt,
  };
}
