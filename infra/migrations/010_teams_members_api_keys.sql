-- Read models of tenancy and access. Written only by projections
-- (projections/team-projection.ts, projections/api-key-projection.ts); commands go to the
-- streams team-<id> and api_key-<id>. No foreign keys: a rebuild recreates each table.
--
-- teams: one row per team, every setting of the operator API.
--   plan: free, starter, solo, lifetime_solo, pro, pro_trial, business, practice, firm
--     (plan facts: services/access/plans.ts: hasApiAccess, hasAutomations, ...).
--   monthly_onboarding_limit: the team's override of its plan's monthly cap; null = the
--     plan's cap; monthly_onboarding_unlimited = true when the override is "unlimited".
--     The cap that applies: monthlyOnboardingLimit(plan, override) in plans.ts.
--   new_recipient_cap: new recipients per 24 h for an unpaid team; null = the default.
-- team_members: members of a team (assignees, notify_member targets). A removed member
--   keeps its row with removed_at set (for "Former team member"); current members have
--   removed_at null. email is trimmed and lowercased.
-- api_keys: one row per key; key_hash = sha256 hex of the secret. A key is active when
--   revoked_at is null and (expires_at is null or now <= expires_at, by the service clock).
create table teams (
  id uuid primary key,
  name text not null,
  plan text not null,
  timezone text not null,
  locale text not null,
  date_format text not null,
  email_sender_name text,
  sending_paused boolean not null default false,
  payments_connected boolean not null default false,
  monthly_onboarding_limit integer,
  monthly_onboarding_unlimited boolean not null default false,
  unpaid boolean not null default false,
  new_recipient_cap integer,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

create table team_members (
  id uuid primary key,
  team_id uuid not null,
  name text not null,
  email text not null,
  role text not null,
  created_at timestamptz not null,
  removed_at timestamptz
);
create index team_members_team_idx on team_members (team_id);

create table api_keys (
  id uuid primary key,
  team_id uuid not null,
  name text not null,
  scopes text[] not null,
  key_hash text not null unique,
  expires_at timestamptz,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index api_keys_team_idx on api_keys (team_id);
