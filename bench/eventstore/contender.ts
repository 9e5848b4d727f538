import type { SampleEvent } from '../lib/sample-event.ts';

/** One side of the side-by-side event store figures. */
export interface Contender {
  /** Short key used in the report: ours, emmett, raw. */
  key: string;
  label: string;
  /** Writes one event into a new stream (raw: one row), in its own transaction. */
  appendOne(streamId: string, event: SampleEvent): Promise<void>;
  /** Writes many events into one new stream in one append (used to fill a log fast). */
  appendMany?(streamId: string, events: SampleEvent[]): Promise<void>;
  /** Reads the whole global log from the start in batches; resolves to the events read. */
  readAll?(batchSize: number): Promise<number>;
  /** Rows in the log table (what a full read should return). */
  logSize?(): Promise<number>;
  /** A contender that is a diagnostic (a proposed change), not a figure with a target. */
  diagnostic?: boolean;
  close(): Promise<void>;
}
