-- Files clients upload through the portal (POST /portal/v1/onboardings/:token/fields/:field_id/files).
-- Operational state, not a read model: written in the same transaction as the file.uploaded
-- event (so a file exists exactly when its event does) and never rebuilt. The file name is
-- personal data and is kept only sealed in the event; the content is deleted when the
-- client is erased. Size limit: 10 MiB per file (services/onboardings/onboarding-files.ts).
create table onboarding_files (
  id uuid primary key,
  onboarding_id uuid not null,
  team_id uuid not null,
  client_id uuid not null,
  field_id text not null,
  content_type text not null,
  size_bytes integer not null,
  content bytea not null,
  created_at timestamptz not null
);
create index onboarding_files_onboarding on onboarding_files (onboarding_id);
create index onboarding_files_client on onboarding_files (client_id);

-- The operator's email list (GET /admin/v1/teams/:team_id/emails) is newest first; the
-- service clock can give several emails the same created_at (TEST_CLOCK stands still), so
-- an insertion sequence orders them. Additive: the outbox's writers do not name it.
alter table mail_outbox add column seq bigint generated always as identity;
create index mail_outbox_team_newest_seq on mail_outbox (team_id, created_at desc, seq desc);
