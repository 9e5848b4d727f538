import { describe, expect, it } from 'vitest';
import {
  apiRateLimits,
  apiRateLimitText,
  hasApiAccess,
  hasAutomations,
  monthlyOnboardingLimit,
  PLANS,
} from './plans.ts';

describe('plans', () => {
  it('lists the nine plans of the operator API', () => {
    expect(PLANS).toEqual([
      'free',
      'starter',
      'solo',
      'lifetime_solo',
      'pro',
      'pro_trial',
      'business',
      'practice',
      'firm',
    ]);
  });

  it('gives API access and automations to pro, pro_trial, business, practice and firm only', () => {
    const withAccess = PLANS.filter(hasApiAccess);
    expect(withAccess).toEqual(['pro', 'pro_trial', 'business', 'practice', 'firm']);
    expect(PLANS.filter(hasAutomations)).toEqual(withAccess);
  });

  it('caps onboardings per month by plan, business unlimited, and honours an override', () => {
    expect(monthlyOnboardingLimit('business')).toBe('unlimited');
    expect(monthlyOnboardingLimit('pro')).toBe(100);
    for (const plan of PLANS.filter((plan) => plan !== 'business')) {
      expect(typeof monthlyOnboardingLimit(plan)).toBe('number');
    }
    expect(monthlyOnboardingLimit('pro', 7)).toBe(7);
    expect(monthlyOnboardingLimit('pro', 'unlimited')).toBe('unlimited');
    expect(monthlyOnboardingLimit('business', 10)).toBe(10);
    expect(monthlyOnboardingLimit('pro', null)).toBe(100);
  });

  it('limits requests per key (200, business 1000) and per key and IP (100, business 500)', () => {
    expect(apiRateLimits('pro')).toEqual({ perKey: 200, perKeyAndIp: 100 });
    expect(apiRateLimits('firm')).toEqual({ perKey: 200, perKeyAndIp: 100 });
    expect(apiRateLimits('business')).toEqual({ perKey: 1000, perKeyAndIp: 500 });
    expect(apiRateLimitText('pro')).toBe('200 requests per minute');
    expect(apiRateLimitText('business')).toBe('1000 requests per minute');
  });
});
