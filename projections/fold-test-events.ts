import type { RecordedEvent } from '../shared/event-store/event-store.ts';

/**
 * A recorded event for the fold tests: only what a fold reads is meaningful. Its stream
 * revision follows its position unless given (a fold keeping revisions skips what it has).
 */
export const recorded = (
  type: string,
  data: unknown,
  position = 1n,
  id = `event-${position}`,
  revision = position - 1n,
): RecordedEvent => ({
  id,
  streamId: 'stream',
  revision,
  position,
  type,
  data,
  metadata: {},
  recordedAt: new Date('2026-01-01T00:00:00Z'),
});
