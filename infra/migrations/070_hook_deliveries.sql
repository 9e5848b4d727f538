-- Hook deliveries: operational state of the hook-deliveries consumer and its
-- worker (services/hooks). Not a read model: never rebuilt.
--
-- hook_deliveries: one row per (subscription, event): its own copy of the event, queued by
--   the consumer in the transaction that marks the event handled (processed_events), so
--   every active subscription gets exactly one delivery per event, delivered at least once.
--   id is the Standard Webhooks `webhook-id` (derived from event id and subscription id;
--   the same on every retry). body is the exact JSON body sent on every attempt.
--   state: pending (not tried yet), retrying (failed, another attempt is scheduled),
--   delivered (a 2xx answer), failed (a 4xx other than 408/429, or the last attempt failed).
--   next_attempt_at is by the service clock (null once delivered or failed); leased_until
--   is by the database clock: a worker holds the row while its request is in flight.
-- hook_delivery_attempts: the delivery log, one row per attempt: status code (null when no
--   answer came), error text, duration.
create table hook_deliveries (
  id uuid primary key,
  subscription_id uuid not null,
  team_id uuid not null,
  event_id uuid not null,
  event_type text not null,
  target_url text not null,
  body text not null,
  state text not null check (state in ('pending', 'retrying', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  leased_until timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  delivered_at timestamptz,
  unique (subscription_id, event_id)
);
create index hook_deliveries_due on hook_deliveries (next_attempt_at) where state in ('pending', 'retrying');
create index hook_deliveries_subscription on hook_deliveries (subscription_id, created_at desc);

create table hook_delivery_attempts (
  delivery_id uuid not null,
  attempt integer not null,
  attempted_at timestamptz not null,
  status_code integer,
  error text,
  duration_ms integer not null,
  primary key (delivery_id, attempt)
);
