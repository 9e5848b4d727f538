import { DateTime } from 'luxon';
import { toDomainEvent } from '../../shared/commands/handle-command.ts';
import { fold } from '../../shared/commands/decider.ts';
import { onboardingDecider, type Onboarding } from '../onboardings/index.ts';
import { onboardingStreamId, type OnboardingEvent } from '../onboardings/index.ts';
import type { EventStore, RecordedEvent } from '../../shared/event-store/event-store.ts';

/**
 * The onboarding as it was when `event` occurred: its stream folded up to and including
 * the event's revision. Deterministic (the same on a redelivery or a replay), whatever
 * happened to the onboarding since. Undefined when the event is not an onboarding's.
 */
export async function onboardingAt(store: EventStore, event: RecordedEvent): Promise<Onboarding | undefined> {
  const onboardingId = (event.data as { onboarding_id?: unknown } | null)?.onboarding_id;
  if (typeof onboardingId !== 'string') return undefined;
  const recorded = await store.readStream(onboardingStreamId(onboardingId));
  const upTo = recorded.filter((entry) => entry.revision <= event.revision || entry.id === event.id);
  const state = fold(onboardingDecider, upTo.map(toDomainEvent<OnboardingEvent>));
  return state.status === 'absent' ? undefined : state;
}

/**
 * A timestamp as the webhook bodies show it: UTC, microseconds, numeric offset
 * (`2026-11-21T10:15:00.123000+00:00`). The service keeps milliseconds, so the last three
 * digits are zeros.
 */
export function isoMicros(value: string | Date): string {
  const at =
    typeof value === 'string' ? DateTime.fromISO(value, { setZone: true }) : DateTime.fromJSDate(value);
  return at.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'000+00:00'");
}
