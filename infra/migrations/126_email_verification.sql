-- Email verification of a self-serve team's owner (services/access/workspace/email-verification.ts,
-- docs/decisions/0006-self-serve-abuse-limits.md). Operational tables written in the
-- transaction of the account command whose event records the fact (account.email_verification_sent,
-- account.email_verified); the tokens are stored as their SHA-256 only.
--
-- team_email_verifications: one row per team made by self-serve sign-up; verified_at null
--   while its owner has not followed the emailed link. A team without a row (provisioned
--   through the operator API, or signed up before verification existed) counts as verified.
create table team_email_verifications (
  team_id uuid primary key,
  member_id uuid not null,
  required_at timestamptz not null,
  verified_at timestamptz
);

-- email_verification_tokens: the emailed links (24 hours, once). A new link ends the older
--   ones of the member (deleted), and the verification ends every one.
create table email_verification_tokens (
  token_hash text primary key,
  member_id uuid not null,
  team_id uuid not null,
  expires_at timestamptz not null,
  created_at timestamptz not null
);
create index email_verification_tokens_member_idx on email_verification_tokens (member_id);

-- A reset request ends the member's older reset links, a completed reset every one: both find
-- them by member.
create index workspace_tokens_member_purpose_idx on workspace_tokens (member_id, purpose)
  where member_id is not null;
