import type { OnboardingEvent } from '../onboarding-events.ts';
import type { RecordDocument } from './commands.ts';
import { base, iso } from './rules.ts';
import type { OnboardingState } from './state.ts';

/**
 * The signed PDF's record (services/onboardings/documents/): decides nothing when the
 * onboarding is no longer completed or its client was erased (a reopen or an erasure
 * between the render and the record), so a late pass is harmless.
 */
export function recordDocument(command: RecordDocument, state: OnboardingState): OnboardingEvent[] {
  if (state.status !== 'completed' || state.client_erased_at !== null) return [];
  return [
    {
      type: 'onboarding_document_rendered',
      data: { ...base(state), ...command.data, rendered_at: iso(command.metadata.now) },
    },
  ];
}
