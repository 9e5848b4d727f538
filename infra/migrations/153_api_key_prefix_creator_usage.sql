-- API keys told apart after a rotation (docs/decisions/0095-api-key-prefix-creator-and-last-use.md):
-- key_prefix, the first 12 characters of the secret ("cos_" and 8 random ones, never the
-- rest) from api_key.created; created_by_member_id, the member the event's metadata names
-- (null: the operator API or an event from before).
alter table api_keys add column key_prefix text, add column created_by_member_id uuid;

-- When a key last authenticated a public API request, to the minute. Not a read model (no
-- event records a use): an operational table the public API's key check writes at most once
-- a minute per key and instance, kept apart so rebuilding api_keys keeps it.
create table api_key_usage (
  api_key_id uuid primary key,
  last_used_at timestamptz not null
);
