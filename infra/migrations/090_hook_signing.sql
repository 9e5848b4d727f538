-- Signed deliveries (services/hooks): signing secrets, signed webhook endpoints, and the
-- delivery log's replays. Secrets live only in the operational tables below, written in
-- the transaction of the command that makes them; events carry ids and times only.
--
-- hook_signing_secrets: one per team, signs every hook subscription delivery
--   (webhook-signature). Made on first need. After a rotation the previous secret keeps
--   signing too until previous_until (service clock), so receivers can switch over.
-- webhook_endpoint_secrets: each signed webhook endpoint's own secret (X-Service-Signature),
--   with the same overlap after a rotation.
-- webhook_endpoints: read model (projections/webhook-endpoints-projection.ts); deliveries
--   read the enabled endpoints of an event's team and type made before the event (position).
-- hook_deliveries gains target_kind (a hook subscription or a webhook endpoint: one queue,
--   one pipeline; subscription_id names either) and round (0, then 1, 2, ... per replay:
--   a replay starts a fresh retry schedule, its attempts logged under the new round).
-- hook_delivery_attempts gains round and next_attempt_at (when the next attempt is due
--   after this one; null when none is).
create table hook_signing_secrets (
  team_id uuid primary key,
  secret text not null,
  previous_secret text,
  previous_until timestamptz,
  created_at timestamptz not null,
  rotated_at timestamptz
);

create table webhook_endpoint_secrets (
  endpoint_id uuid primary key,
  team_id uuid not null,
  secret text not null,
  previous_secret text,
  previous_until timestamptz,
  created_at timestamptz not null,
  rotated_at timestamptz
);

create table webhook_endpoints (
  id uuid primary key,
  team_id uuid not null,
  url text not null,
  event_types text[] not null,
  enabled boolean not null,
  created_at timestamptz not null,
  deleted_at timestamptz,
  position bigint not null
);
create index webhook_endpoints_team on webhook_endpoints (team_id) where deleted_at is null;

alter table hook_deliveries
  add column target_kind text not null default 'hook' check (target_kind in ('hook', 'endpoint')),
  add column round integer not null default 0;
create index hook_deliveries_failed on hook_deliveries (subscription_id, updated_at) where state = 'failed';

alter table hook_delivery_attempts
  add column round integer not null default 0,
  add column next_attempt_at timestamptz,
  drop constraint hook_delivery_attempts_pkey,
  add primary key (delivery_id, round, attempt);
