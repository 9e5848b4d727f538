import type { OnboardingEvent } from '../onboarding-events.ts';
import type { ArchiveOnboarding, EraseClient, UnarchiveOnboarding } from './commands.ts';
import { base, fail, iso, requireExisting } from './rules.ts';
import type { OnboardingState } from './state.ts';

/** Archive, unarchive, and the client's erasure: moves beside the status table. */
export function archive(command: ArchiveOnboarding, state: OnboardingState): OnboardingEvent[] {
  const onboarding = requireExisting(state);
  if (onboarding.archived_at !== null) return [];
  return [
    { type: 'onboarding_archived', data: { ...base(onboarding), archived_at: iso(command.metadata.now) } },
  ];
}

/** Unarchiving an onboarding that is not archived decides nothing. */
export function unarchive(command: UnarchiveOnboarding, state: OnboardingState): OnboardingEvent[] {
  if (state.status === 'absent' || state.team_id !== command.data.team_id) throw fail('target_unavailable');
  if (state.client_erased_at !== null) throw fail('target_unavailable');
  if (state.archived_at === null) return [];
  return [
    { type: 'onboarding_unarchived', data: { ...base(state), unarchived_at: iso(command.metadata.now) } },
  ];
}

export function eraseClient(command: EraseClient, state: OnboardingState): OnboardingEvent[] {
  const onboarding = requireExisting(state);
  if (onboarding.client_erased_at !== null) return [];
  return [
    {
      type: 'onboarding_client_erased',
      data: { ...base(onboarding), client_id: onboarding.client_id, erased_at: iso(command.metadata.now) },
    },
  ];
}
