-- automation_rules: read model of the automation rules (projections/automation-rules-projection.ts),
-- for the workspace's list of a team's rules. The rules themselves are event streams
-- automation_rule-<id>; one rule is read from its stream (services/automation/automation-rules.ts).
-- A deleted rule keeps its row with deleted_at set.
create table automation_rules (
  id uuid primary key,
  team_id uuid not null,
  name text not null,
  trigger text not null,
  action jsonb not null,
  enabled boolean not null,
  created_at timestamptz not null,
  deleted_at timestamptz,
  position bigint not null
);

create index automation_rules_team on automation_rules (team_id, created_at) where deleted_at is null;
