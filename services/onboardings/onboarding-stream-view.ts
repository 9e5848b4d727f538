import type { FastifyRequest } from 'fastify';
import type { Platform } from '../../shared/app-deps.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { isSealed } from '../../shared/privacy/personal-data-vault.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import { ERROR_TEXTS } from './decider/index.ts';
import { onboardingStreamId, type OnboardingEvent } from './onboarding-events.ts';
import { visibleOnboardingExists } from '../../projections/onboardings/queries.ts';

/**
 * What the workspace's review, timeline and file routes read of one onboarding of the
 * signed-in member's team: its events and, opened with the client's key as the portal and
 * the read models do, the values the client entered. Another team's onboarding, an unknown
 * one and an erased client's are not found (404 target_unavailable).
 */

export type StreamViewDeps = Pick<Platform, 'readPool' | 'eventStore' | 'vault'>;

export const onboardingNotFound = () => codedError(404, 'target_unavailable', ERROR_TEXTS.target_unavailable);

/** The team's onboarding's events, or 404. */
export async function teamOnboardingEvents(
  context: StreamViewDeps,
  request: FastifyRequest,
  onboardingId: string,
): Promise<RecordedEvent[]> {
  if (!(await visibleOnboardingExists(context.readPool, signedIn(request).teamId, onboardingId))) {
    throw onboardingNotFound();
  }
  return context.eventStore.readStream(onboardingStreamId(onboardingId));
}

/** The client-entered values of the events, opened, by event id (null: no longer readable). */
export async function openedValues(
  context: StreamViewDeps,
  events: readonly RecordedEvent[],
): Promise<Map<string, unknown>> {
  const opened = new Map<string, unknown>();
  const open = async (value: unknown) => (isSealed(value) ? await context.vault.open(value) : value);
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
    if (event.type === 'answer_saved') {
      const text = await open(event.data.value);
      opened.set(recorded.id, isSealed(event.data.value) ? parseOrNull(text) : event.data.value);
    } else if (event.type === 'file.uploaded') {
      opened.set(recorded.id, await open(event.data.file_name));
    } else if (event.type === 'signature.signed' && event.data.signer_role === 'client') {
      opened.set(recorded.id, await open(event.data.signer_name));
    }
  }
  return opened;
}

function parseOrNull(text: unknown): unknown {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
