-- Stripe webhooks (POST /webhooks/stripe, services/payments/).
-- stripe_events_handled: each Stripe event id once. Written in the transaction of the
--   command the event causes, so a repeat (Stripe retries, a replay, concurrent deliveries)
--   finds the row and changes nothing. outcome says what the event did or why it did
--   nothing (recorded, already_recorded, ignored_type, unknown_onboarding, foreign_account,
--   refused:<code>, ...). handled_at by the service clock; rows go after
--   PROCESSED_EVENTS_RETENTION_DAYS (services/app/retention-purges.ts), well past Stripe's
--   three days of retries.
create table stripe_events_handled (
  event_id text primary key,
  type text not null,
  outcome text not null,
  handled_at timestamptz not null
);
create index stripe_events_handled_handled_at on stripe_events_handled (handled_at);

-- stripe_payment_references: the processor's ids of a recorded payment (its payment intent,
--   subscription and Checkout Session) -> the onboarding, field, team and connected account,
--   written with payment.succeeded, so that the later events (invoice.paid, charge.refunded,
--   customer.subscription.deleted), which carry only Stripe's ids, find their onboarding.
--   Ids only, no personal data; kept for the payment's life.
create table stripe_payment_references (
  reference text primary key,
  kind text not null check (kind in ('payment_intent', 'subscription', 'checkout_session')),
  onboarding_id uuid not null,
  field_id text not null,
  team_id uuid not null,
  stripe_account_id text not null,
  created_at timestamptz not null
);
create index stripe_payment_references_onboarding on stripe_payment_references (onboarding_id);
