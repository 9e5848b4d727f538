import { randomUUID } from 'node:crypto';
import type { Platform } from '../../shared/app-deps.ts';
import { fold } from '../../shared/commands/decider.ts';
import { toDomainEvent } from '../../shared/commands/handle-command.ts';
import { awaitReadModels, CONSUMER_READ_MODELS_WAIT_MS } from '../../shared/commands/read-your-writes.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { EventConsumer } from '../../shared/subscriptions/event-consumer.ts';
import {
  onboardingDecider,
  onboardingStreamId,
  type Onboarding,
  type OnboardingEvent,
} from '../onboardings/index.ts';
import { NOTIFIED_EVENT_TYPES, notificationKind } from './notification-kind.ts';
import { recipientsOf } from './recipients.ts';

/** What the consumer uses. */
export type NotificationsConsumerDeps = Pick<Platform, 'projections' | 'logger' | 'eventStore' | 'clock'>;

/**
 * The consumer `notifications` (subscription port: the log or a Kafka group): for an
 * onboarding's news (./notification-kind.ts) writes one row per recipient (./recipients.ts)
 * in table notifications, in the transaction that marks the event handled. A redelivery is
 * skipped by the port, and (member, event) is unique besides: a replay of the log or a
 * rebuild of the read models writes, and so emails, nothing again. The email itself waits
 * for the member's digest (./digest-pass.ts).
 */
export function notificationsConsumer(context: NotificationsConsumerDeps): EventConsumer {
  return {
    name: 'notifications',
    eventTypes: NOTIFIED_EVENT_TYPES,
    async handle(event, tx) {
      const data = (event.data ?? {}) as { team_id?: unknown; onboarding_id?: unknown };
      if (typeof data.team_id !== 'string' || typeof data.onboarding_id !== 'string') return;
      const { before, at } = await onboardingAround(context, data.onboarding_id, event);
      if (!at || at.team_id !== data.team_id) return;
      const kind = notificationKind(event, before);
      if (!kind) return;
      await awaitReadModels(context, event.position, { timeoutMs: CONSUMER_READ_MODELS_WAIT_MS });
      const recipients = await recipientsOf(tx, at.team_id, at.assigned_to, kind);
      const now = context.clock.now();
      for (const recipient of recipients) {
        await tx.query(
          `insert into notifications (id, team_id, member_id, kind, onboarding_id, client_id, template_name,
             event_id, position, occurred_at, created_at, in_app, email_state)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, true, $12)
           on conflict (member_id, event_id) do nothing`,
          [
            randomUUID(),
            at.team_id,
            recipient.memberId,
            kind,
            at.id,
            at.client_id,
            at.snapshot.name,
            event.id,
            String(event.position),
            event.recordedAt,
            now,
            recipient.channel === 'email' ? 'pending' : 'none',
          ],
        );
      }
    },
  };
}

/** The onboarding just before and just after `event` (its stream folded up to it): the same on a replay. */
async function onboardingAround(
  context: NotificationsConsumerDeps,
  onboardingId: string,
  event: RecordedEvent,
): Promise<{ before: Onboarding | undefined; at: Onboarding | undefined }> {
  const recorded = await context.eventStore.readStream(onboardingStreamId(onboardingId));
  const upTo = recorded.filter((entry) => entry.revision <= event.revision || entry.id === event.id);
  const events = upTo.map(toDomainEvent<OnboardingEvent>);
  const state = (list: OnboardingEvent[]) => {
    const folded = fold(onboardingDecider, list);
    return folded.status === 'absent' ? undefined : folded;
  };
  const at = state(events);
  const before = state(events.filter((_, index) => upTo[index]!.id !== event.id));
  return { before, at };
}
