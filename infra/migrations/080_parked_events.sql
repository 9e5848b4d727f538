-- Events a projection cannot apply (its SQL or code fails on them for good): parked per
-- checkpoint so that projection goes on with the next events and the others are not held.
-- A row names the event and the error only: no event data, no row values (error details
-- that quote values are dropped before they get here).
--
-- `projection` is the checkpoint name: the projection's name, or `<name>__rebuild` while
-- `npm run rebuild` replays the log into shadow tables (the swap gives them the live name).
-- `read_after` is the log position just before the event (the one a reader passes as
-- `after` to get the event again), so a retry finds it through either event store.
create table parked_events (
  projection text not null,
  event_id uuid not null,
  position bigint not null,
  read_after bigint not null,
  event_type text not null,
  error_code text,
  error_message text not null,
  attempts integer not null default 1,
  parked_at timestamptz not null default now(),
  last_attempt_at timestamptz not null default now(),
  primary key (projection, event_id)
);

create index parked_events_projection_position_idx on parked_events (projection, position);
