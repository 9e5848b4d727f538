-- Operational tables of the team workspace's sign-in (services/access/workspace/). They are
-- written in the transaction of an account or team command (its events carry only ids and
-- facts); secrets are stored hashed (SHA-256 of 32 random bytes; argon2id for passwords)
-- or sealed (the TOTP secret, through the personal data vault).
--
-- member_credentials: one row per member who can sign in; email is unique over every team
--   (one account, one email). totp_secret: the active secret (sealed), null when two-factor
--   is off; totp_pending_secret: a setup that is started but not confirmed;
--   totp_last_step: the 30-second time step of the last code accepted, so a code works once.
create table member_credentials (
  member_id uuid primary key,
  team_id uuid not null,
  email text not null unique,
  password_hash text not null,
  totp_secret jsonb,
  totp_pending_secret jsonb,
  totp_last_step integer,
  updated_at timestamptz not null
);

-- workspace_sessions: id_hash = sha256 hex of the cookie's random id; csrf_token_hash =
--   sha256 hex of the synchronizer token. A session ends at its idle timeout, at its
--   absolute lifetime (services/access/workspace/session-policy.ts) or when deleted.
create table workspace_sessions (
  id_hash text primary key,
  member_id uuid not null,
  team_id uuid not null,
  csrf_token_hash text not null,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  reauthenticated_at timestamptz
);
create index workspace_sessions_member_idx on workspace_sessions (member_id);

-- workspace_tokens: one-time links sent by email. purpose: password_reset (member_id set,
--   30 minutes) or invitation (email, name, role set, 7 days). Single use: used_at.
create table workspace_tokens (
  token_hash text primary key,
  purpose text not null check (purpose in ('password_reset', 'invitation')),
  team_id uuid not null,
  member_id uuid,
  email text,
  name text,
  role text,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null
);

-- sign_in_locks: an email locked after too many wrong passwords, until locked_until (by
--   email, so an unknown address behaves like a known one).
create table sign_in_locks (
  email text primary key,
  locked_until timestamptz not null
);

-- workspace_key_requests: the Idempotency-Key of a key creation or rotation and the key it
--   made, so a repeated request ("check") answers the same key without making a second one.
create table workspace_key_requests (
  team_id uuid not null,
  action text not null,
  idempotency_key text not null,
  api_key_id uuid not null,
  created_at timestamptz not null,
  primary key (team_id, action, idempotency_key)
);

-- team_activity: read model of the workspace's audit view (projections/team-activity-projection.ts):
--   sign-ins, lockouts, key creations, rotations, revocations and member changes, newest
--   first by position. actor_member_id: the member whose command it was (event metadata).
create table team_activity (
  id uuid primary key,
  team_id uuid not null,
  type text not null,
  actor_member_id uuid,
  data jsonb not null,
  occurred_at timestamptz not null,
  position bigint not null
);
create index team_activity_team_newest on team_activity (team_id, position desc);
