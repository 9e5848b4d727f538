import { describe, it } from 'vitest';
import { fold } from '../../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingCommand } from './index.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import { archived, at, created, patch, send } from './test-fixtures.ts';

/** Archive and the client's erasure. */
const given = DeciderSpecification.for(onboardingDecider);

describe('archive and erasure', () => {
  it('archive and client erasure are recorded once', () => {
    given(created())
      .when({ type: 'ArchiveOnboarding', data: {}, metadata: { now: at(5) } })
      .then([archived(5)]);
    given(created(), archived())
      .when({ type: 'ArchiveOnboarding', data: {}, metadata: { now: at(6) } })
      .then([]);
    const erase: OnboardingCommand = { type: 'EraseClient', data: {}, metadata: { now: at(5) } };
    given(created()).when(erase).thenTypes(['onboarding_client_erased']);
    const erased = onboardingDecider.decide(erase, fold(onboardingDecider, [created()]));
    given(created(), ...erased)
      .when(erase)
      .then([]);
    given(created(), ...erased)
      .when(send())
      .thenThrows('client_erasure_pending');
    given(created(), ...erased)
      .when(patch({ status: 'cancelled' }))
      .thenThrows('target_unavailable');
  });
});
