-- The CRUD twin's own tables (bench/crud-twin): what a plain fastify + pg service would
-- keep for create, send and get of onboardings, with the indexes the service's own tables
-- have for the same reads. Rows are updated in place; nothing is event-sourced.
create table teams (
  id uuid primary key,
  name text not null,
  plan text not null,
  timezone text not null,
  email_sender_name text,
  sending_paused boolean not null default false,
  payments_connected boolean not null default false,
  monthly_limit integer,
  unpaid boolean not null default false,
  new_recipient_cap integer not null default 25,
  reminder_schedule jsonb not null
);

create table api_keys (
  id uuid primary key,
  team_id uuid not null,
  key_hash text not null unique,
  scopes text[] not null,
  expires_at timestamptz,
  revoked_at timestamptz
);

create table templates (
  id uuid primary key,
  team_id uuid,
  gallery boolean not null default false,
  snapshot jsonb not null,
  deleted_at timestamptz
);

create table clients (
  id uuid primary key,
  team_id uuid not null,
  name text,
  email text,
  erased_at timestamptz,
  created_at timestamptz not null
);
create index clients_team_email on clients (team_id, email);

create sequence onboarding_position;
create table onboardings (
  id uuid primary key,
  team_id uuid not null,
  client_id uuid not null,
  template_id uuid not null,
  template_source text not null,
  template_name text not null,
  template_snapshot jsonb not null,
  status text not null,
  progress_pct integer not null,
  created_at timestamptz not null,
  due_date text,
  due_at timestamptz,
  due_on text,
  due_timezone text,
  expires_at text,
  assigned_to uuid,
  archived_at timestamptz,
  client_erased_at timestamptz,
  send_count integer not null,
  last_sent_at timestamptz,
  updated_at timestamptz not null,
  position bigint not null default nextval('onboarding_position'),
  reminder_schedule jsonb not null,
  pin_hash text,
  last_answer_saved_at timestamptz
);
create index onboardings_team_newest on onboardings (team_id, created_at desc, position desc);
create index onboardings_team_client on onboardings (team_id, client_id);

create table onboarding_links (
  token_hash text primary key,
  onboarding_id uuid not null,
  team_id uuid not null,
  send_number integer not null,
  issued_at timestamptz not null,
  deactivated_at timestamptz
);
create index onboarding_links_onboarding on onboarding_links (onboarding_id);

create table onboarding_send_usage (
  onboarding_id uuid primary key,
  team_id uuid not null,
  usage_month text not null,
  counted_at timestamptz not null
);
create index onboarding_send_usage_team_month on onboarding_send_usage (team_id, usage_month);

create table onboarding_recipients (
  team_id uuid not null,
  client_id uuid not null,
  first_invited_at timestamptz not null,
  primary key (team_id, client_id)
);
create index onboarding_recipients_recent on onboarding_recipients (team_id, first_invited_at);

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
  status text not null,
  client_id uuid,
  html text
);
create index mail_outbox_team_newest on mail_outbox (team_id, created_at desc);
create index mail_outbox_queued on mail_outbox (created_at) where status = 'queued';
create index mail_outbox_client on mail_outbox (client_id) where client_id is not null;
