import type { OnboardingEvent } from '../onboarding-events.ts';
import type { RecordPayment, SignField } from './commands.ts';
import { base, fail, iso, requireChangeable, requireExisting, requireField, requireLink } from './rules.ts';
import type { Onboarding, OnboardingState } from './state.ts';

/** Fields answered by their own event: a signature, a confirmed payment. */
/** A client signs while answering; a team member countersigns an onboarding in progress or completed. */
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
      },
    },
  ];
}

/** A processor-confirmed payment is recorded once per payment intent, whatever the status after sending. */
export function recordPayment(command: RecordPayment, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireExisting(state);
  if (onboarding.archived_at !== null || onboarding.client_erased_at !== null)
    throw fail('target_unavailable');
  if (onboarding.send_count === 0) throw fail('invalid_state', { status: onboarding.status });
  const field = requireField(onboarding, data.field_id);
  if (field.field.type !== 'payment') throw fail('field_not_found');
  if (onboarding.payment_intents.includes(data.payment_intent_id)) return [];
  return [
    {
      type: 'payment.succeeded',
      data: {
        ...base(onboarding),
        step_id: field.step_id,
        field_id: field.field.id,
        payment_id: data.payment_id,
        payment_intent_id: data.payment_intent_id,
        amount_cents: data.amount_cents,
        subscription_id: data.subscription_id,
        recurring: data.subscription_id !== null,
        interval: data.interval,
        paid_at: iso(metadata.now),
      },
    },
  ];
}
