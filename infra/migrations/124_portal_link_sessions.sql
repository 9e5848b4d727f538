-- Link sessions of the client portal (services/onboardings/portal/portal-link-sessions.ts):
-- a correct PIN opens one, so the client's form checks the PIN once per visit. Only the
-- SHA-256 of the session id (the cookie's value) is kept, with the link's token hash and the
-- salt of the PIN it was opened with: a new link (resend) or a new PIN ends it. No personal
-- data. Rows past their idle or absolute lifetime are deleted when a new session is opened.
create table portal_link_sessions (
  id_hash text primary key,
  token_hash text not null,
  pin_salt text not null,
  created_at timestamptz not null,
  last_seen_at timestamptz not null
);

create index portal_link_sessions_last_seen on portal_link_sessions (last_seen_at);
create index portal_link_sessions_created on portal_link_sessions (created_at);
