import { describe, expect, it } from 'vitest';
import { newField, newStep, type BuilderTemplate } from '../template-model.ts';
import { paymentNoticeOf, planName } from './payment-notice.tsx';

const withPayment = (required: boolean): BuilderTemplate => {
  const step = newStep('s1', 'Pay');
  const fee = newField('payment', 'fee', 'Retainer fee');
  fee.is_required = required;
  step.fields = [fee];
  return {
    id: 't',
    version: 1,
    name: 'R',
    description: null,
    vertical: null,
    settings: {},
    translations: null,
    steps: [step],
  };
};

describe('the payment notice at save', () => {
  it('names the plan first, then the missing Stripe account, and nothing when payments can be collected', () => {
    const payments = (plan_allows: boolean, connected: boolean) => ({ plan_allows, connected });
    expect(
      paymentNoticeOf(withPayment(true), { plan: 'pro_trial', payments: payments(false, false) }),
    ).toEqual({
      kind: 'plan',
      plan: 'Pro trial',
    });
    expect(paymentNoticeOf(withPayment(true), { plan: 'pro', payments: payments(true, false) })).toEqual({
      kind: 'connect',
    });
    expect(paymentNoticeOf(withPayment(true), { plan: 'pro', payments: payments(true, true) })).toBeNull();
    expect(
      paymentNoticeOf(withPayment(false), { plan: 'free', payments: payments(false, false) }),
    ).toBeNull();
    expect(paymentNoticeOf(withPayment(true), { plan: 'pro' })).toBeNull();
    expect(planName('lifetime_solo')).toBe('Lifetime solo');
  });
});
