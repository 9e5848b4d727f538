import { randomUUID } from 'node:crypto';
import {
  ANY,
  NO_STREAM,
  START,
  type AppendExpectedRevision,
  type EventData,
  type JSONType,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { ExpectedRevision, NewEvent, RecordedEvent } from './event-store.ts';

/** Translation between our event store port and @eventstore/db-client's types. */

type EsdbEvent = NonNullable<ResolvedEvent['event']>;

/** Positions are stored in bigint (int64) columns; an unknown position arrives as 2^64 - 1. */
const MAX_POSITION = 2n ** 63n - 1n;

/** The server's own events ($stats, $settings, links from projections) are not ours. */
export function isSystemEvent(event: { type: string; streamId: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/**
 * Our position is the commit position in $all. Every event of a gRPC append is its own
 * committed log record, so commit positions are unique and grow in $all order.
 */
export function toReadPosition(after: bigint): ReadPosition {
  return after <= 0n ? START : { commit: after, prepare: after };
}

/** Servers from 22.6 report an event's log position on stream reads too; older ones send none. */
export function streamEventPosition(event: EsdbEvent): bigint {
  const commit = event.position?.commit;
  return commit !== undefined && commit <= MAX_POSITION ? commit : -1n;
}

export function toRecorded(event: EsdbEvent, position: bigint): RecordedEvent {
  const metadata: unknown = event.metadata;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position,
    type: event.type,
    data: event.isJson ? event.data : JSON.parse(Buffer.from(event.data).toString('utf8')),
    metadata:
      metadata && typeof metadata === 'object' && !ArrayBuffer.isView(metadata) && !Array.isArray(metadata)
        ? (metadata as Record<string, unknown>)
        : {},
    recordedAt: event.created,
  };
}

export function toEventData(event: NewEvent): EventData {
  return {
    id: event.id ?? randomUUID(),
    contentType: 'application/json',
    type: event.type,
    // The client JSON-encodes any value; its type only names objects, arrays and strings.
    data: (event.data ?? null) as JSONType,
    metadata: event.metadata ?? {},
  };
}

export function toExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return expected;
}
