import { describe, expect, it } from 'vitest';
import { hasPayments, PLANS } from '../../services/access/contract/plans.ts';
import { canCollectPayments } from '../../services/onboardings/send-policy.ts';

describe('plans that collect payments', () => {
  it('the workspace shows what the send check decides, plan by plan', () => {
    for (const plan of PLANS) expect(hasPayments(plan), plan).toBe(canCollectPayments(plan));
    expect(hasPayments('pro_trial')).toBe(false);
    expect(hasPayments('pro')).toBe(true);
  });
});
