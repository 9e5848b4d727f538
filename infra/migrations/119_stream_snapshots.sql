-- stream_snapshots: the folded state of a long stream at one revision, so a command reads
-- the snapshot and only the events after it (shared/commands/stream-snapshots.ts). A cache:
-- written in the append's own transaction (PostgreSQL store), never needed for
-- correctness, rebuilt by the next command when missing. `version` names the decider's
-- evolve: a snapshot of another version is ignored. The state keeps event values as the
-- events carry them (personal fields sealed), so an erasure leaves it unreadable as well.
create table stream_snapshots (
  stream_id text primary key,
  version text not null,
  revision bigint not null,
  state jsonb not null,
  taken_at timestamptz not null default now()
);
