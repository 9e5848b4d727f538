import type { RecordedEvent } from '../shared/event-store/event-store.ts';

/** A recorded event for the fold tests: only what a fold reads is meaningful. */
export const recorded = (
  type: string,
  data: unknown,
  position = 1n,
  id = `event-${position}`,
): RecordedEvent => ({
  id,
  streamId: 'stream',
  revision: 0n,
  position,
  type,
  data,
  metadata: {},
  recordedAt: new Date('2026-01-01T00:00:00Z'),
});
