-- Idempotent consumers (shared/subscriptions): one row per event a consumer has handled,
-- written in the same transaction as the consumer's own effects. A second delivery of the
-- same event id (Kafka redelivery, a relay replay, a log re-read) finds the row and is
-- skipped. Consumer checkpoints of the log adapter live in `checkpoints` under
-- `consumer:<name>`; the relay's under `relay:kafka`.
create table processed_events (
  consumer text not null,
  event_id uuid not null,
  position bigint not null,
  processed_at timestamptz not null default now(),
  primary key (consumer, event_id)
);
