-- With EventStoreDB a command's rows that must survive a crash after its append (the
-- send's invite, held; monthly usage, recipients, timers) commit before the append, with
-- one row here naming the events they were written for (shared/commands/events-first.ts).
-- The command's own transaction deletes the row once the append is through. A row left
-- behind (a crash or a failed append) is settled under the stream's lock by the next
-- command on that stream or by the pending-appends pass: events present, the held mail is
-- released; events absent, the rows are undone. mail_outbox.status gains `held` (an
-- invite whose event may not exist yet: never sent, not listed).
create table eventstoredb_pending_appends (
  command_id uuid primary key,
  stream_id text not null,
  event_ids uuid[] not null,
  -- The decided events ({type, data}), for undoing their rows when they never landed.
  events jsonb not null,
  created_at timestamptz not null default now()
);
create index eventstoredb_pending_appends_stream on eventstoredb_pending_appends (stream_id);
