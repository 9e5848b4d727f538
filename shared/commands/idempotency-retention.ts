/**
 * How long an Idempotency-Key's answer is kept (./idempotency.ts); the events-first path
 * (./events-first.ts) keeps its pending records as long.
 */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
