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

/**
 * How the append bench gets a contender: opened for one turn with a pool of the turn's
 * concurrency and closed after it, so that the idle connections of five contenders never
 * add up past the server's max_connections (300).
 */
export interface ContenderFactory {
  key: string;
  open(poolSize: number): Promise<Contender>;
}
