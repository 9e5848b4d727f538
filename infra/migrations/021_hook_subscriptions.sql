-- Read model of hook subscriptions (projections/hook-subscriptions-projection.ts).
-- Deliveries read the active subscriptions of an event's team and type.
create table hook_subscriptions (
  id uuid primary key,
  team_id uuid not null,
  event text not null,
  target_url text not null,
  active boolean not null,
  api_key_id uuid,
  created_at timestamptz not null,
  deleted_at timestamptz,
  position bigint not null
);

create index hook_subscriptions_active on hook_subscriptions (team_id, event) where active;
