-- What each member chose per notification kind (PUT /workspace/v1/me/notification-preferences):
-- 'email' (in the app and by email), 'in_app' (the bell only) or 'off'. A kind without a
-- row is 'email' (docs/decisions/0083-notification-choices.md).
create table notification_preferences (
  member_id uuid not null,
  team_id uuid not null,
  kind text not null check (kind in ('completed', 'resubmitted', 'signed', 'paid', 'overdue')),
  channel text not null check (channel in ('email', 'in_app', 'off')),
  updated_at timestamptz not null,
  primary key (member_id, kind)
);
