-- The PostgreSQL event store.
--
-- A global position is derived from the writing transaction's id: position =
-- xid * 65536 + index inside the append. Readers only read rows whose transaction id is
-- below the oldest transaction still in flight (pg_snapshot_xmin), so every transaction
-- that could still commit has a larger id, hence larger positions, than anything a
-- reader has already seen: no event that commits late can be skipped, and positions
-- reach readers strictly ascending.
create table event_streams (
  stream_id text primary key,
  revision bigint not null
);

create table events (
  position bigint primary key,
  transaction_id xid8 not null,
  event_id uuid not null unique,
  stream_id text not null,
  revision bigint not null,
  type text not null,
  data jsonb not null,
  metadata jsonb not null,
  recorded_at timestamptz not null default now(),
  unique (stream_id, revision)
);
