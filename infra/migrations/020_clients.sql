-- Read model of clients (projections/clients-projection.ts). Personal fields are the
-- opened values of the sealed event fields; they are null once the client's key is
-- erased. `erased_at` is set when the client is erased: erased clients leave every list
-- and every get.
create table clients (
  id uuid primary key,
  team_id uuid not null,
  name text,
  email text,
  company text,
  phone text,
  notes text,
  custom_fields jsonb not null default '{}'::jsonb,
  locale text not null,
  date_format text not null,
  timezone text not null,
  created_at timestamptz not null,
  erased_at timestamptz,
  -- Global log position of client.created: newest first among equal created_at.
  position bigint not null
);

create index clients_team_newest on clients (team_id, created_at desc, position desc);
create index clients_team_email on clients (team_id, email);
