import type { EventConsumer } from '../../shared/subscriptions/event-consumer.ts';
import { releaseHeldMail } from '../../shared/mail/outbox.ts';

/**
 * With EventStoreDB a send writes its invite held, before the append (shared/commands/
 * events-first.ts). When the process dies after the append and before the send's own
 * transaction commits, nobody else releases it: this consumer follows the log and queues
 * the invite of every onboarding.sent it sees. It is idempotent (a released or missing
 * invite stays as it is), and the log consumer's dedupe row and checkpoint commit with
 * the release, so a crash in between only offers the event again.
 */
export const heldInvitesConsumer: EventConsumer = {
  name: 'held-invites',
  eventTypes: ['onboarding.sent'],
  handle: (event, tx) => releaseHeldMail(tx, [event.id]),
};
