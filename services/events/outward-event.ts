import type { RecordedEvent } from '../../shared/event-store/event-store.ts';

/**
 * An event as it leaves the service (the NDJSON export, the Kafka relay): the log as it is,
 * except what events written before docs/decisions/0016 carry of an unkeyed digest of a
 * client's email, which anyone could test a guessed address against:
 *
 * - the stream id of an old email reservation, `client_email-<team_id>-<sha256(email)>`,
 *   goes out as `client_email-<team_id>-<client_id>` (the client the event names: one
 *   key per client, so its reservation events stay in order on one partition);
 * - the `email_hash` field of client.created, client.updated and client_email.* is left out.
 *
 * Events written since carry neither, and pass unchanged (the same object).
 */
const LEGACY_EMAIL_STREAM = /^client_email-([0-9a-f-]{36})-[0-9a-f]{64}$/;
const WITH_EMAIL_HASH = new Set([
  'client.created',
  'client.updated',
  'client_email.reserved',
  'client_email.released',
]);

export function outwardEvent(event: RecordedEvent): RecordedEvent {
  const legacyStream = LEGACY_EMAIL_STREAM.exec(event.streamId);
  const hashed =
    WITH_EMAIL_HASH.has(event.type) &&
    typeof event.data === 'object' &&
    event.data !== null &&
    'email_hash' in event.data;
  if (!legacyStream && !hashed) return event;
  const data = hashed ? withoutEmailHash(event.data as Record<string, unknown>) : event.data;
  const clientId = (event.data as { client_id?: unknown } | null)?.client_id;
  const streamId = legacyStream
    ? `client_email-${legacyStream[1]}-${typeof clientId === 'string' ? clientId : 'unknown'}`
    : event.streamId;
  return { ...event, streamId, data };
}

function withoutEmailHash(data: Record<string, unknown>): Record<string, unknown> {
  const { email_hash: _dropped, ...rest } = data;
  return rest;
}
