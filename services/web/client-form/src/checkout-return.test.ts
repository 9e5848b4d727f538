import { describe, expect, it } from 'vitest';
import { checkoutReturnOf } from './checkout-return.ts';

const token = 'a'.repeat(64);
const kept = (fieldId: string, at: number) => JSON.stringify({ token, field_id: fieldId, at });

describe('the way back from Stripe Checkout', () => {
  const now = 1_800_000_000_000;

  it('any other address is no return', () => {
    expect(checkoutReturnOf(`/f/${token}`, '', kept('pay', now), now)).toBeNull();
  });

  it('the return address finds the link kept in the tab and the outcome of the field kept', () => {
    expect(
      checkoutReturnOf('/f/checkout-return', '?outcome=success&field=pay', kept('pay', now), now),
    ).toEqual({
      token,
      back: { fieldId: 'pay', outcome: 'success' },
    });
    expect(
      checkoutReturnOf('/f/checkout-return/', '?outcome=cancelled&field=pay', kept('pay', now), now),
    ).toEqual({ token, back: { fieldId: 'pay', outcome: 'cancelled' } });
  });

  it('another field or an unknown outcome opens the form without one', () => {
    expect(checkoutReturnOf('/f/checkout-return', '?outcome=success&field=x', kept('pay', now), now)).toEqual(
      {
        token,
        back: null,
      },
    );
    expect(
      checkoutReturnOf('/f/checkout-return', '?outcome=paid&field=pay', kept('pay', now), now)?.back,
    ).toBeNull();
  });

  it('nothing kept, something unreadable or older than a day: no link', () => {
    const none = { token: null, back: null };
    expect(checkoutReturnOf('/f/checkout-return', '?outcome=success&field=pay', null, now)).toEqual(none);
    expect(checkoutReturnOf('/f/checkout-return', '?outcome=success&field=pay', '{', now)).toEqual(none);
    const old = kept('pay', now - 25 * 60 * 60 * 1000);
    expect(checkoutReturnOf('/f/checkout-return', '?outcome=success&field=pay', old, now)).toEqual(none);
  });
});
