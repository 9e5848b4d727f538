import { describe, expect, it } from 'vitest';
import { monthlyText, paymentsActions, stateKey } from './payments.ts';
import type { Payments } from './payments-api.ts';

const payments = (change: Partial<Payments> = {}): Payments => ({
  plan_allows: true,
  online: true,
  account_state: 'not_connected',
  stripe_account_id: null,
  connected: false,
  ...change,
});

describe('the settings page on payments', () => {
  it('offers connect, continue setup or disconnect by the account state; nothing without online payments', () => {
    expect(paymentsActions(payments())).toEqual(['connect']);
    expect(paymentsActions(payments({ account_state: 'details_missing' }))).toEqual([
      'continue',
      'disconnect',
    ]);
    expect(paymentsActions(payments({ account_state: 'ready', connected: true }))).toEqual(['disconnect']);
    expect(paymentsActions(payments({ online: false }))).toEqual([]);
    expect(stateKey({ account_state: 'ready' })).toBe('settings.payments.state.ready');
  });

  it('says the monthly onboardings in words', () => {
    const t = (key: string, values?: Record<string, unknown>) =>
      `${key}${values ? JSON.stringify(values) : ''}`;
    expect(monthlyText('unlimited', t)).toBe('settings.plan.unlimited');
    expect(monthlyText(25, t)).toBe('settings.plan.monthly{"count":25}');
  });
});
