import { describe, expect, it } from 'vitest';
import type { OnboardingEvent, TemplateSnapshot } from './onboarding-events.ts';
import { currentSnapshot, dashboardUrl, isTestModeKey, paymentsOf } from './payments-view.ts';

const snapshot = {
  name: 'Paid',
  steps: [
    {
      id: 's1',
      title: 'Pay',
      fields: [
        {
          id: 'once',
          type: 'payment',
          label: 'Retainer',
          is_required: true,
          config: { amount_cents: 15000, currency: 'EUR' },
        },
        {
          id: 'monthly',
          type: 'payment',
          label: 'Bookkeeping',
          is_required: false,
          config: { amount_cents: 900, interval: 'month' },
        },
        { id: 'name', type: 'short_text', label: 'Name', is_required: true, config: {} },
      ],
    },
  ],
} as unknown as TemplateSnapshot;

const base = { onboarding_id: 'o1', team_id: 't1', step_id: 's1' };
const succeeded = (field_id: string, extra: Record<string, unknown> = {}) =>
  ({
    type: 'payment.succeeded',
    data: {
      ...base,
      field_id,
      payment_id: `pay-${field_id}`,
      payment_intent_id: `pi_${field_id}`,
      amount_cents: 15000,
      subscription_id: null,
      recurring: false,
      interval: null,
      paid_at: '2026-11-27T10:00:00.000Z',
      ...extra,
    },
  }) as OnboardingEvent;
const refunded = (field_id: string, amount: number, fully: boolean) =>
  ({
    type: 'payment_refunded',
    data: {
      ...base,
      field_id,
      payment_intent_id: `pi_${field_id}`,
      charge_id: 'ch_1',
      amount_refunded_cents: amount,
      fully_refunded: fully,
      refunded_at: '2026-11-27T11:00:00.000Z',
    },
  }) as OnboardingEvent;

const byField = (events: OnboardingEvent[], testMode = false) =>
  Object.fromEntries(paymentsOf(events, snapshot, { testMode }).map((view) => [view.field_id, view]));

describe('paymentsOf', () => {
  it('lists every payment field unpaid with what it asks, the default currency when it names none', () => {
    const views = paymentsOf([], snapshot);
    expect(
      views.map((view) => [view.field_id, view.status, view.amount_cents, view.currency, view.interval]),
    ).toEqual([
      ['once', 'unpaid', 15000, 'eur', null],
      ['monthly', 'unpaid', 900, 'usd', 'month'],
    ]);
    expect(views[0]!.dashboard_url).toBeNull();
  });

  it('a failed Checkout, then a payment; a partial and then a full refund', () => {
    const failed = {
      type: 'payment_failed',
      data: {
        ...base,
        field_id: 'once',
        checkout_session_id: 'cs_1',
        payment_intent_id: null,
        failed_at: '2026-11-27T09:00:00.000Z',
      },
    } as OnboardingEvent;
    expect(byField([failed])['once']).toMatchObject({ status: 'failed', failed_attempts: 1 });
    const paid = [failed, succeeded('once')];
    expect(byField(paid)['once']).toMatchObject({
      status: 'paid',
      failed_attempts: 1,
      payment_intent_id: 'pi_once',
      dashboard_url: 'https://dashboard.stripe.com/payments/pi_once',
    });
    expect(byField([...paid, refunded('once', 5000, false)])['once']).toMatchObject({
      status: 'partially_refunded',
      refunded_cents: 5000,
    });
    expect(
      byField([...paid, refunded('once', 5000, false), refunded('once', 15000, true)])['once'],
    ).toMatchObject({
      status: 'refunded',
      refunded_cents: 15000,
    });
  });

  it('a subscription: later periods counted, its end shown, the test dashboard link', () => {
    const subscription = succeeded('monthly', {
      amount_cents: 900,
      subscription_id: 'sub_1',
      payment_intent_id: 'sub_1',
      recurring: true,
      interval: 'month',
    });
    const renewed = {
      type: 'payment_renewed',
      data: {
        ...base,
        field_id: 'monthly',
        subscription_id: 'sub_1',
        invoice_id: 'in_2',
        amount_cents: 900,
        paid_at: '2026-12-27T10:00:00.000Z',
      },
    } as OnboardingEvent;
    const ended = {
      type: 'payment_subscription_ended',
      data: { ...base, field_id: 'monthly', subscription_id: 'sub_1', ended_at: '2027-01-10T10:00:00.000Z' },
    } as OnboardingEvent;
    expect(byField([subscription, renewed, ended], true)['monthly']).toMatchObject({
      status: 'subscription_ended',
      renewals: { count: 1, last_paid_at: '2026-12-27T10:00:00.000Z', last_amount_cents: 900 },
      subscription_ended_at: '2027-01-10T10:00:00.000Z',
      dashboard_url: 'https://dashboard.stripe.com/test/subscriptions/sub_1',
    });
  });

  it('Mark as paid: the member and the note, no dashboard link', () => {
    const marked = {
      type: 'payment_marked_paid',
      data: {
        ...base,
        field_id: 'once',
        payment_id: 'pay-1',
        amount_cents: 15000,
        currency: 'eur',
        note: 'Cash',
        member_id: 'm1',
        marked_at: '2026-11-27T12:00:00.000Z',
      },
    } as OnboardingEvent;
    expect(byField([marked])['once']).toMatchObject({
      status: 'marked_paid',
      marked_by: { member_id: 'm1' },
      note: 'Cash',
      paid_at: '2026-11-27T12:00:00.000Z',
      dashboard_url: null,
    });
  });

  it('follows a refreshed template; knows test-mode keys', () => {
    const created = { type: 'onboarding_created', data: { template_snapshot: { name: 'old', steps: [] } } };
    const refreshedTemplate = {
      type: 'onboarding_template_refreshed',
      data: { template_snapshot: snapshot },
    };
    expect(currentSnapshot([created, refreshedTemplate] as OnboardingEvent[])).toBe(snapshot);
    expect([
      isTestModeKey('sk_test_1'),
      isTestModeKey('rk_test_1'),
      isTestModeKey('sk_live_1'),
      isTestModeKey(undefined),
    ]).toEqual([true, true, false, false]);
    expect(dashboardUrl({ payment_intent_id: null, subscription_id: null }, { testMode: true })).toBeNull();
  });
});
