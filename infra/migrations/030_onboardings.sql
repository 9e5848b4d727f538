-- Read models of onboardings, written only by projections/onboardings-projection.ts
-- from the streams onboarding-<id>. No foreign keys: a rebuild recreates each table.
--
-- onboardings: one row per onboarding (GET /api/v1/onboardings, GET /api/v1/onboardings/:id).
--   due_date and expires_at are kept as given (ISO text with its offset); due_at is the
--   same instant as timestamptz for sorting and comparisons. template_name is the name
--   copied into the snapshot at creation. client_erased_at is set when the client was
--   erased: such onboardings leave every list and get (the clients row's erased_at says
--   the same; lists check both).
-- onboarding_links: one row per client token ever issued (only its SHA-256). The active
--   link of an onboarding is its row with deactivated_at null: a send deactivates the
--   earlier ones, a cancel or an erasure deactivates all. The portal looks tokens up here;
--   the aggregate checks the token again when a command runs.
create table onboardings (
  id uuid primary key,
  team_id uuid not null,
  client_id uuid not null,
  template_id uuid not null,
  template_source text not null,
  template_name text not null,
  template_snapshot jsonb not null,
  status text not null,
  progress_pct integer not null,
  created_at timestamptz not null,
  due_date text,
  due_at timestamptz,
  due_on text,
  due_timezone text,
  expires_at text,
  assigned_to uuid,
  archived_at timestamptz,
  client_erased_at timestamptz,
  send_count integer not null,
  last_sent_at timestamptz,
  updated_at timestamptz not null,
  -- Global log position of onboarding_created: newest first among equal created_at.
  position bigint not null
);
create index onboardings_team_newest on onboardings (team_id, created_at desc, position desc);
create index onboardings_team_client on onboardings (team_id, client_id);

create table onboarding_links (
  token_hash text primary key,
  onboarding_id uuid not null,
  team_id uuid not null,
  send_number integer not null,
  issued_at timestamptz not null,
  deactivated_at timestamptz
);
create index onboarding_links_onboarding on onboarding_links (onboarding_id);
