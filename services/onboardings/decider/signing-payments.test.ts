import { describe, it } from 'vitest';
import { fold } from '../../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingCommand } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import {
  MEMBER,
  answered,
  at,
  base,
  created,
  field,
  sent,
  snapshot,
  started,
  inProgress,
  completedEvents,
} from './test-fixtures.ts';

/** Signatures, files and payments answer a field. */
const given = DeciderSpecification.for(onboardingDecider);

describe('fields answered by their own event', () => {
  it('client signature and team countersignature', () => {
    const sign = (
      signer: Extract<OnboardingCommand, { type: 'SignField' }>['data']['signer'],
    ): OnboardingCommand => ({
      type: 'SignField',
      data: {
        field_id: 'sig',
        signature_id: 'sg1',
        signer_name: 'Ada',
        signer_email: 'ada@example.com',
        signer,
      },
      metadata: { now: at(4) },
    });
    given(...inProgress)
      .when(sign({ role: 'client', token_hash: 'hash-1' }))
      .thenTypes(['signature.signed']);
    given(...completedEvents())
      .when(sign({ role: 'team_member', member_id: MEMBER }))
      .thenTypes(['signature.signed']);
    given(created(), sent(1, 'draft'))
      .when(sign({ role: 'team_member', member_id: MEMBER }))
      .thenThrows('invalid_state');
    const onText = sign({ role: 'client', token_hash: 'hash-1' });
    if (onText.type !== 'SignField') throw new Error('unreachable');
    given(...inProgress)
      .when({ ...onText, data: { ...onText.data, field_id: 'f1' } })
      .thenThrows('field_not_found');
  });

  it('a signature, a file or a payment answers a required field', () => {
    const signed: OnboardingEvent = {
      type: 'signature.signed',
      data: {
        ...base,
        step_id: 's1',
        field_id: 'sig',
        signature_id: 'sg',
        signer_name: 'A',
        signer_email: 'a@example.com',
        signer_role: 'client',
        member_id: null,
        signed_at: at(4).toISOString(),
      },
    };
    given(...inProgress, answered('f1', 's1'), signed)
      .when({ type: 'SubmitStep', data: { token_hash: 'hash-1', step_id: 's1' }, metadata: { now: at(5) } })
      .thenTypes(['response.submitted', 'onboarding.completed']);
  });

  it('file upload and payment', () => {
    const withFile = created(snapshot({ fields2: [field('f2', 'file_upload', { is_required: false })] }));
    given(withFile, sent(1, 'draft'), started(1, 'sent'))
      .when({
        type: 'UploadFile',
        data: {
          token_hash: 'hash-1',
          field_id: 'f2',
          file_id: 'file1',
          file_name: 'a.pdf',
          content_type: 'application/pdf',
          size_bytes: 10,
        },
        metadata: { now: at(4) },
      })
      .thenTypes(['file.uploaded']);
    const pay = (intent: string): OnboardingCommand => ({
      type: 'RecordPayment',
      data: {
        field_id: 'pay',
        payment_id: 'p1',
        payment_intent_id: intent,
        amount_cents: 5000,
        subscription_id: null,
        interval: null,
      },
      metadata: { now: at(4) },
    });
    const withPayment = created(
      snapshot({ fields2: [field('pay', 'payment', { config: { amount_cents: 5000 } })] }),
    );
    given(withPayment, sent(1, 'draft')).when(pay('pi_1')).thenTypes(['payment.succeeded']);
    const paid = onboardingDecider.decide(
      pay('pi_1'),
      fold(onboardingDecider, [withPayment, sent(1, 'draft')]),
    );
    given(withPayment, sent(1, 'draft'), ...paid)
      .when(pay('pi_1'))
      .then([]);
    given(withPayment).when(pay('pi_1')).thenThrows('invalid_state');
  });
});
