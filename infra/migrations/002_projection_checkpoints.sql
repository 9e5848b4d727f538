-- One row per projection or consumer: the global position it has fully handled.
create table checkpoints (
  name text primary key,
  position bigint not null default 0,
  updated_at timestamptz not null default now()
);
