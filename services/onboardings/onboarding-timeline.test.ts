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
