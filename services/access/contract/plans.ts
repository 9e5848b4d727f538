/**
 * Plan facts in one place (operator-and-portal-api.md, "Plans"; client-onboarding-api.md,
 * "Limits"). Pure data and functions: the public API, the send checks and the automation
 * runner all ask here.
 */
export const PLANS = [
  'free',
  'starter',
  'solo',
  'lifetime_solo',
  'pro',
  'pro_trial',
  'business',
  'practice',
  'firm',
] as const;

export type Plan = (typeof PLANS)[number];

/** Plans with API access; automations come with the same plans. */
const API_PLANS: ReadonlySet<Plan> = new Set(['pro', 'pro_trial', 'business', 'practice', 'firm']);

export const isPlan = (value: string): value is Plan => (PLANS as readonly string[]).includes(value);

export const hasApiAccess = (plan: Plan): boolean => API_PLANS.has(plan);

export const hasAutomations = (plan: Plan): boolean => API_PLANS.has(plan);

/**
 * Plans that may collect payments through a required payment field: the send checks, the
 * automation runner and the workspace all ask here (docs/decisions/0068-payments-through-stripe.md).
 * The trial takes no real money, and plans without API access cannot either.
 */
export const PAYMENT_PLANS: ReadonlySet<Plan> = new Set(['pro', 'business', 'practice', 'firm']);

export const hasPayments = (plan: Plan): boolean => PAYMENT_PLANS.has(plan);

/**
 * Onboardings a team may send per calendar month (the spec leaves the caps open; these
 * are this service's choice, documented in docs/decisions/0024-plans-and-limits.md). Business is unlimited.
 */
export const MONTHLY_ONBOARDING_CAPS: Readonly<Record<Plan, number | 'unlimited'>> = {
  free: 3,
  starter: 20,
  solo: 50,
  lifetime_solo: 50,
  pro: 100,
  pro_trial: 25,
  business: 'unlimited',
  practice: 200,
  firm: 500,
};

/** A team's override of its plan's cap (PATCH monthly_onboarding_limit); null keeps the plan's. */
export type MonthlyOnboardingOverride = number | 'unlimited' | null;

/** The cap that applies to a team: its override when set, else its plan's. */
export function monthlyOnboardingLimit(
  plan: Plan,
  override: MonthlyOnboardingOverride = null,
): number | 'unlimited' {
  return override ?? MONTHLY_ONBOARDING_CAPS[plan];
}

export interface ApiRateLimits {
  /** Requests per minute per API key. */
  perKey: number;
  /** Requests per minute per API key and client IP address. */
  perKeyAndIp: number;
}

/** Requests per minute per IP address, every key and plan, checked before the key. */
export const PER_IP_RATE_LIMIT = 100;

/** Rate windows are fixed, 60 seconds long. */
export const RATE_WINDOW_SECONDS = 60;

export function apiRateLimits(plan: Plan): ApiRateLimits {
  return plan === 'business' ? { perKey: 1000, perKeyAndIp: 500 } : { perKey: 200, perKeyAndIp: 100 };
}

/** `limits.api_rate_limit` of GET /api/v1/me, e.g. "200 requests per minute". */
export function apiRateLimitText(plan: Plan): string {
  return `${apiRateLimits(plan).perKey} requests per minute`;
}
