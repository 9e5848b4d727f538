import type { Writable } from 'node:stream';
import type { EventStore, RecordedEvent } from '../../shared/event-store/event-store.ts';
import { outwardEvent } from './outward-event.ts';

/**
 * One line of the NDJSON export. `position` is a decimal string (positions outgrow the
 * numbers JSON readers keep exact); `time` is when the event was recorded; `data` and
 * `metadata` are as stored (sealed personal values stay sealed), except the unkeyed email
 * digests of old events, which never leave the service (./outward-event.ts).
 */
export interface ExportLine {
  position: string;
  id: string;
  stream_id: string;
  revision: number;
  type: string;
  time: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

export const toExportLine = (stored: RecordedEvent): ExportLine => {
  const event = outwardEvent(stored);
  return {
    position: String(event.position),
    id: event.id,
    stream_id: event.streamId,
    revision: Number(event.revision),
    type: event.type,
    time: event.recordedAt.toISOString(),
    data: event.data,
    metadata: event.metadata,
  };
};

export interface ExportProgress {
  /** Called after each batch with the events written so far and the expected total. */
  update(done: number, total: number): void;
  finish(): void;
}

export interface ExportOptions {
  /** Export events strictly after this position (0n: from the start). */
  from: bigint;
  /** Stop at this position (inclusive); the log head when the export starts, by default. */
  until?: bigint;
  batchSize?: number;
  progress?: ExportProgress;
  /** The number of events in (from, until], when the store can count them cheaply. */
  count?: (from: bigint, until: bigint) => Promise<number>;
}

export interface ExportResult {
  events: number;
  /** Position of the last event written (`from` when none): the next export's --from. */
  lastPosition: bigint;
  until: bigint;
}

/**
 * Writes the log as NDJSON, one event per line in position order, from `from`
 * (exclusive) to the head as it was when the export began, reading in batches and
 * honouring the stream's back-pressure.
 */
export async function exportEvents(
  store: EventStore,
  out: Writable,
  options: ExportOptions,
): Promise<ExportResult> {
  const batchSize = options.batchSize ?? 1000;
  const until = options.until ?? (await store.headPosition());
  const exact = options.count && until > options.from ? await options.count(options.from, until) : undefined;
  let total = exact ?? 0;
  let done = 0;
  let after = options.from;
  // An unknown total is not drawn as an empty (complete) one before the first batch.
  if (exact !== undefined) options.progress?.update(0, total);
  while (after < until) {
    const batch = (await store.readAll({ after, limit: batchSize })).filter(
      (event) => event.position <= until,
    );
    if (batch.length === 0) break;
    const text = batch.map((event) => `${JSON.stringify(toExportLine(event))}\n`).join('');
    if (!out.write(text)) await waitForDrain(out);
    done += batch.length;
    after = batch[batch.length - 1]!.position;
    if (exact === undefined) {
      // No count: estimate the total from how far through the position range we are.
      const share = Number(after - options.from) / Number(until - options.from);
      total = Math.max(done, Math.round(done / Math.max(share, 1e-9)));
    }
    options.progress?.update(done, Math.max(total, done));
  }
  options.progress?.finish();
  return { events: done, lastPosition: after, until };
}

function waitForDrain(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onDrain);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    out.once('drain', onDrain);
    out.once('error', onError);
    out.once('close', onDrain);
  });
}
