-- Crypto-shredding: one AES-256-GCM key per data subject (a client). Personal fields in
-- events are stored encrypted with it; erasing the subject deletes the key, which makes
-- those fields unreadable everywhere the log is kept (PostgreSQL or EventStoreDB, Kafka,
-- exports) without rewriting history.
create table personal_data_keys (
  subject_id uuid primary key,
  team_id uuid not null,
  key bytea,
  created_at timestamptz not null default now(),
  erased_at timestamptz
);
