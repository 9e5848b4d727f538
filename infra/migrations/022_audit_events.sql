-- The events feed (GET /api/v1/events): every audit event of a team, as
-- services/events/audit-event-types.ts maps it (projections/audit-events-projection.ts).
-- `id` is the domain event's id; `position` orders the feed (newest first).
create table audit_events (
  id uuid primary key,
  team_id uuid not null,
  type text not null,
  onboarding_id uuid,
  data jsonb not null,
  occurred_at timestamptz not null,
  position bigint not null
);

create index audit_events_team_newest on audit_events (team_id, position desc);
create index audit_events_team_type_newest on audit_events (team_id, type, position desc);
