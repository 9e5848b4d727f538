-- The team's connected Stripe account (Stripe Connect; services/access/stripe-account-state.ts).
-- teams (read model, projections/teams/): stripe_account_id 'acct_...' or null;
--   stripe_account_state 'not_connected' | 'details_missing' | 'ready' (ready: the account
--   takes charges and its details are submitted); payments_connected follows it. Rows of
--   teams from before read as no account, not connected.
-- The index finds the team of an account (account.updated webhooks); not unique, since a
-- read model must accept whatever its events say.
alter table teams
  add column stripe_account_id text,
  add column stripe_account_state text not null default 'not_connected';

create index teams_stripe_account_id_idx on teams (stripe_account_id) where stripe_account_id is not null;
