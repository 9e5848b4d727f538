import { describe, expect, it } from 'vitest';
import {
  awaitsPayment,
  formatAmount as format,
  stripeIds,
  type OnboardingPayment,
} from './payments-model.ts';

describe('payments model', () => {
  it('writes an amount in its currency’s own units and the locale', () => {
    // Intl writes a no-break space between code and number.
    const formatAmount = (...args: Parameters<typeof format>) => format(...args).replace(/\s/g, ' ');
    expect(formatAmount(15000, 'eur', 'en-US')).toBe('€150.00');
    expect(formatAmount(500, 'jpy', 'en-US')).toBe('¥500');
    expect(formatAmount(1500, 'kwd', 'en-US')).toBe('KWD 1.500');
    expect(formatAmount(15000, 'eur', 'de-DE')).toBe('150,00 €');
  });

  it('shows the subscription id, and the payment intent only when it is another id', () => {
    const payment = { subscription_id: 'sub_1', payment_intent_id: 'sub_1' } as OnboardingPayment;
    expect(stripeIds(payment)).toEqual([{ label: 'payments.subscriptionId', id: 'sub_1' }]);
    expect(stripeIds({ subscription_id: null, payment_intent_id: 'pi_1' } as OnboardingPayment)).toEqual([
      { label: 'payments.paymentIntentId', id: 'pi_1' },
    ]);
  });

  it('offers Mark as paid only while nothing was received', () => {
    const of = (status: OnboardingPayment['status']) => awaitsPayment({ status } as OnboardingPayment);
    expect([of('unpaid'), of('failed'), of('paid'), of('marked_paid'), of('refunded')]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
