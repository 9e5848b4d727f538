import type { OnboardingEvent } from '../onboarding-events.ts';
import type { SignField } from './commands.ts';
import { base, fail, iso, requireChangeable, requireExisting, requireField, requireLink } from './rules.ts';
import type { Onboarding, OnboardingState } from './state.ts';

/**
 * A client signs while answering; a team member countersigns an onboarding in progress or
 * completed. The evidence the route gathered (IP, user agent, digest of the answers signed)
 * goes into the event with the consent text: the field's agreement text as the snapshot holds it.
 */
export function signField(command: SignField, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  let onboarding: Onboarding;
  if (data.signer.role === 'client') {
    onboarding = requireLink(state, data.signer.token_hash, metadata.now);
    requireChangeable(onboarding, data.field_id);
  } else {
    onboarding = requireExisting(state);
    if (onboarding.archived_at !== null || onboarding.client_erased_at !== null)
      throw fail('target_unavailable');
    if (onboarding.status !== 'in_progress' && onboarding.status !== 'completed') {
      throw fail('invalid_state', { status: onboarding.status });
    }
  }
  const field = requireField(onboarding, data.field_id);
  if (field.field.type !== 'signature') throw fail('field_not_found');
  const agreement = (field.field.config as { agreement_text?: unknown } | null)?.agreement_text;
  const evidence = data.evidence && {
    ...data.evidence,
    consent_text: typeof agreement === 'string' ? agreement : '',
  };
  return [
    {
      type: 'signature.signed',
      data: {
        ...base(onboarding),
        step_id: field.step_id,
        field_id: field.field.id,
        signature_id: data.signature_id,
        signer_name: data.signer_name,
        signer_email: data.signer_email,
        signer_role: data.signer.role,
        member_id: data.signer.role === 'team_member' ? data.signer.member_id : null,
        signed_at: iso(metadata.now),
        ...(evidence ? { evidence } : {}),
      },
    },
  ];
}
