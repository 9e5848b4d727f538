-- The workspace's client search without opening every client
-- (docs/decisions/0017-client-search-blind-index.md). token is an HMAC-SHA256 (first 16
-- bytes) under a key derived from the team's index key of one normalized word or word
-- prefix of the client's name, email or company; no plain word is stored. Written by the
-- client's commands in their transaction, deleted by its erasure; not a projection (a
-- rebuild leaves it alone).
create table client_search_tokens (
  team_id uuid not null,
  token bytea not null,
  client_id uuid not null,
  primary key (team_id, token, client_id)
);
create index client_search_tokens_client on client_search_tokens (client_id);

-- One row per client whose tokens are written: the start-up index job
-- (services/clients/client-search-job.ts) indexes the clients without one, so an existing
-- install gets its index, and deleting rows here re-indexes those clients at the next start.
create table client_search_documents (
  client_id uuid primary key,
  team_id uuid not null,
  indexed_at timestamptz not null default now()
);
