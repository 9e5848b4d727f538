-- Operational state of onboarding commands: not read models, so not rebuilt.
-- Every row is written in the same PostgreSQL transaction as the command's events (with
-- the PostgreSQL event store, the append itself runs in that transaction), so a command
-- either happened with all of its effects or not at all.
--
-- idempotency_records: Idempotency-Key of create, update and send (client-onboarding-api.md,
--   Idempotent retries). One value belongs to one API key and one operation. fingerprint =
--   SHA-256 of the operation, the onboarding id and the canonical JSON body. The stored
--   answer (status and body) is AES-256-GCM encrypted with a key derived from the API key's
--   secret and the Idempotency-Key (the create answer holds the client token, which is
--   stored nowhere else in the clear). created_at is by the service clock; after 24 hours
--   the same value runs as a new command and replaces the row.
create table idempotency_records (
  api_key_id uuid not null,
  operation text not null,
  key text not null,
  fingerprint text not null,
  onboarding_id uuid,
  status integer,
  response bytea,
  position bigint,
  created_at timestamptz not null,
  primary key (api_key_id, operation, key)
);

-- onboarding_send_usage: one row per onboarding counted against its team's monthly limit
--   (its first send); usage_month is YYYY-MM in the team's time zone at that moment.
--   Sends of one team take a transaction-level advisory lock first, so two concurrent first
--   sends cannot both pass the cap.
create table onboarding_send_usage (
  onboarding_id uuid primary key,
  team_id uuid not null,
  usage_month text not null,
  counted_at timestamptz not null
);
create index onboarding_send_usage_team_month on onboarding_send_usage (team_id, usage_month);

-- onboarding_recipients: the first invite of each client by its team (new recipients per
--   24 hours, the cap of unpaid teams).
create table onboarding_recipients (
  team_id uuid not null,
  client_id uuid not null,
  first_invited_at timestamptz not null,
  primary key (team_id, client_id)
);
create index onboarding_recipients_recent on onboarding_recipients (team_id, first_invited_at);

-- onboarding_timers: durable timers of onboardings, by the service clock (the scheduler
--   works them). kind: reminder (REMINDER_SCHEDULE_DAYS after each send), overdue (at the
--   due date of a sent onboarding), link_expiry (at expires_at). key is unique per
--   onboarding (reminder:<send number>:<n>, overdue:<due_date>, link_expiry:<expires_at>).
--   status: scheduled, cancelled (cancel, completion, expiry, archive, erasure, a resend
--   or a new due date made it obsolete), fired (set by the scheduler).
create table onboarding_timers (
  id uuid primary key,
  onboarding_id uuid not null,
  team_id uuid not null,
  kind text not null,
  key text not null,
  due_at timestamptz not null,
  status text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (onboarding_id, key)
);
create index onboarding_timers_due on onboarding_timers (due_at) where status = 'scheduled';

-- mail_outbox: every email the service sends, queued first (GET /admin/v1/teams/:id/emails
--   reads it; the mailer sends it). kind: invite, reminder, automation, notification.
--   status: queued, sent, failed. An invite is written in the transaction of its
--   onboarding.sent event (event_id), so a send queues exactly one invite.
create table mail_outbox (
  id uuid primary key,
  team_id uuid not null,
  kind text not null,
  "to" text not null,
  from_name text not null,
  subject text not null,
  text text not null,
  onboarding_id uuid,
  event_id uuid unique,
  created_at timestamptz not null,
  status text not null default 'queued'
);
create index mail_outbox_team_newest on mail_outbox (team_id, created_at desc);
create index mail_outbox_queued on mail_outbox (created_at) where status = 'queued';
