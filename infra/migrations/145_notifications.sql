-- The notifications of team members (services/notifications/): one row per (member, event)
-- the member is told about, written by the consumer `notifications` in the transaction that
-- marks the event handled (a redelivery or a replay writes nothing twice: unique event_id
-- per member). in_app: shown under the bell; email_state: 'pending' until the member's
-- digest takes it ('sent'), 'none' when the member chose no email for the kind. No client
-- name is kept here: the list reads it from the clients read model (an erased client
-- reads as none).
create table notifications (
  id uuid primary key,
  team_id uuid not null,
  member_id uuid not null,
  kind text not null check (kind in ('completed', 'resubmitted', 'signed', 'paid', 'overdue')),
  onboarding_id uuid not null,
  client_id uuid,
  template_name text not null,
  event_id uuid not null,
  -- The event's position in the global log: orders notifications of one moment as they happened.
  position bigint not null,
  occurred_at timestamptz not null,
  created_at timestamptz not null,
  in_app boolean not null,
  read_at timestamptz,
  email_state text not null check (email_state in ('pending', 'sent', 'none')),
  emailed_at timestamptz,
  unique (member_id, event_id)
);
create index notifications_member_newest on notifications (team_id, member_id, created_at desc, position desc)
  where in_app;
create index notifications_email_pending on notifications (member_id, created_at) where email_state = 'pending';
