import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { onboardingTimeline } from './onboarding-timeline.ts';

const recorded = (
  type: string,
  data: Record<string, unknown>,
  metadata: Record<string, unknown>,
): RecordedEvent => ({
  id: type,
  streamId: 'onboarding-1',
  revision: 0n,
  position: 0n,
  type,
  data,
  metadata: metadata as RecordedEvent['metadata'],
  recordedAt: new Date('2026-11-27T10:00:00.000Z'),
});

describe('who the timeline names for a payment', () => {
  it('Stripe for what its signed webhook told, the member for Mark as paid', () => {
    const at = '2026-11-27T10:00:00.000Z';
    const entries = onboardingTimeline(
      [
        recorded(
          'payment.succeeded',
          { field_id: 'pay', amount_cents: 100, paid_at: at },
          { actor: 'stripe' },
        ),
        recorded('payment_refunded', { field_id: 'pay', refunded_at: at }, { actor: 'stripe' }),
        recorded('payment_marked_paid', { field_id: 'pay', marked_at: at }, { actor_member_id: 'm1' }),
        recorded('payment.succeeded', { field_id: 'pay', paid_at: at }, {}),
      ],
      { mails: [], deliveries: [], runs: [] },
    );
    expect(entries.map((entry) => entry.actor)).toEqual([
      { type: 'stripe' },
      { type: 'stripe' },
      { type: 'member', member_id: 'm1' },
      { type: 'service' },
    ]);
  });
});

describe('a resubmission on the timeline', () => {
  it('marks the step submitted again after the team sent an answer of it back, once', () => {
    const snapshot = {
      name: 'T',
      steps: [{ id: 's1', title: 'About you', fields: [{ id: 'f1', label: 'Name' }] }],
    };
    const submitted = (minute: number) =>
      recorded('response.submitted', { step_id: 's1', submitted_at: `2026-11-27T10:0${minute}:00.000Z` }, {});
    const entries = onboardingTimeline(
      [
        recorded('onboarding_created', { template_snapshot: snapshot }, {}),
        submitted(1),
        recorded(
          'response_rejected',
          { field_id: 'f1', step_id: 's1', reason: 'Typo' },
          { actor_member_id: 'm1' },
        ),
        submitted(2),
        submitted(3),
      ],
      { mails: [], deliveries: [], runs: [] },
    );
    expect(
      entries
        .filter((entry) => entry.kind === 'response.submitted')
        .map((entry) => entry.detail['resubmitted']),
    ).toEqual([undefined, true, undefined]);
  });
});
