import { createHash } from 'node:crypto';
import type { PoolClient } from '../db/pool.ts';

/**
 * Serialises the units of work of one stream inside PostgreSQL: a transaction-level
 * advisory lock on the stream, taken before the stream is read and before any
 * operational row is written. Commands on one onboarding then queue instead of reading
 * the same revision, writing the same timer rows in different orders (deadlocks) and
 * failing their appends. The wait is capped at STREAM_LOCK_WAIT_MS: a command that does
 * not get the lock by then fails with lock_not_available (55P03), a conflict that the
 * pipeline rolls back and retries after a jittered wait (./conflict-retry.ts), so a busy
 * stream never holds more than a few pool connections in waiting.
 */
export const STREAM_LOCK_WAIT_MS = 250;

/** A 64-bit lock key of the stream (SHA-256 based: no collision with hashtext-based keys in practice). */
export function streamLockKey(streamId: string): bigint {
  return createHash('sha256').update(`stream-lock:${streamId}`).digest().readBigInt64BE(0);
}

export async function lockStream(tx: PoolClient, streamId: string): Promise<void> {
  // One round trip; the key is a number computed here, never text from outside.
  await tx.query(
    `set local lock_timeout = '${STREAM_LOCK_WAIT_MS}ms';
     select pg_advisory_xact_lock(${streamLockKey(streamId)});
     set local lock_timeout to default`,
  );
}
