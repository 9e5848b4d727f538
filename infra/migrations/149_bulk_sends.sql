-- One "send a template to these clients" action of the workspace per idempotency key
-- (POST /workspace/v1/onboardings/bulk-send, docs/decisions/0088-bulk-send.md): a second
-- request with the same key (a double click) answers the first one's summary instead of
-- sending again. `answer` is null while the first runs; it holds ids, codes and reasons,
-- no personal data. Kept 7 days.
create table bulk_sends (
  team_id uuid not null,
  idempotency_key text not null,
  member_id uuid not null,
  started_at timestamptz not null,
  answer jsonb,
  primary key (team_id, idempotency_key)
);
