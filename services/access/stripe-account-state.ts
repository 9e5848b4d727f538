/**
 * The team's Stripe account (Stripe Connect) as the team's settings hold it: pure facts the
 * decider, the operator PATCH, the workspace routes and the account.updated webhook share.
 */

export const STRIPE_ACCOUNT_STATES = ['not_connected', 'details_missing', 'ready'] as const;

/**
 * not_connected: no account; details_missing: an account Stripe does not yet let take
 * charges or whose details are not submitted; ready: it takes payments.
 */
export type StripeAccountState = (typeof STRIPE_ACCOUNT_STATES)[number];

/** A connected account's id as Stripe writes it. */
export const STRIPE_ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;

/** The team's account and its state; teams from before Stripe Connect read as not connected. */
export interface StripeAccountOfTeam {
  stripe_account_id: string | null;
  stripe_account_state: StripeAccountState;
}

/** What Stripe says of an account (its `charges_enabled` and `details_submitted`). */
export interface StripeAccountFacts {
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
}

/** Ready only when Stripe lets the account take charges and its details are submitted. */
export function accountStateOf(facts: StripeAccountFacts): Exclude<StripeAccountState, 'not_connected'> {
  return facts.chargesEnabled && facts.detailsSubmitted ? 'ready' : 'details_missing';
}

/**
 * The settings that change together: the account id, its state and payments_connected,
 * which follows the state (only a ready account takes payments). No id: not connected.
 */
export function stripeAccountSettings(
  accountId: string | null,
  state: Exclude<StripeAccountState, 'not_connected'> = 'ready',
): StripeAccountOfTeam & { payments_connected: boolean } {
  if (accountId === null) {
    return { stripe_account_id: null, stripe_account_state: 'not_connected', payments_connected: false };
  }
  return { stripe_account_id: accountId, stripe_account_state: state, payments_connected: state === 'ready' };
}

/** A team that never connected an account (every team at its creation). */
export const NOT_CONNECTED: StripeAccountOfTeam = Object.freeze({
  stripe_account_id: null,
  stripe_account_state: 'not_connected',
});
