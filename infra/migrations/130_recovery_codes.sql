-- Two-factor recovery codes (services/access/workspace/recovery-codes.ts,
-- docs/decisions/0009-invitations-and-recovery-codes.md): ten one-time codes handed out
-- when two-factor sign-in is turned on or the codes are regenerated. Only the SHA-256 of
-- the member id and the code is stored (a code has 80 random bits); used_at marks a used
-- code (spent by a conditional update, so a code signs in once even under concurrency).
-- Regenerating or turning two-factor off deletes the member's codes.
create table member_recovery_codes (
  member_id uuid not null,
  code_hash text not null,
  created_at timestamptz not null,
  used_at timestamptz,
  primary key (member_id, code_hash)
);
