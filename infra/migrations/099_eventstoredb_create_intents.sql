-- With EventStoreDB a create's append cannot join its PostgreSQL transaction. Its planned
-- onboarding id and client token (sealed like the idempotency answer, with a key derived
-- from the API key's secret and the Idempotency-Key) commit here before the append, with
-- the request's fingerprint. A retry with the same key whose idempotency record was lost
-- to a crash reuses them: it answers from the stream when the events landed, or creates
-- that same onboarding when they did not (services/onboardings/create-intents.ts). The
-- command's transaction, which keeps the idempotency answer, deletes the row; a row left
-- by a crash is purged after the 24-hour window.
create table eventstoredb_create_intents (
  api_key_id uuid not null,
  key text not null,
  fingerprint text not null,
  onboarding_id uuid not null,
  sealed_token bytea not null,
  created_at timestamptz not null,
  primary key (api_key_id, key)
);
