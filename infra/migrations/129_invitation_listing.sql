-- Invitations listed, resent and revoked by owners and admins
-- (services/access/workspace/invitation-routes.ts, docs/decisions/0009-invitations-and-recovery-codes.md).
--
-- workspace_tokens (purpose invitation) gains:
--   invitation_id: the id of the team.member_invited event, so the page and the API name an
--     invitation without its link; a resend keeps it and replaces token_hash (the older link
--     stops working), a revocation deletes the row.
--   invited_by: the member who sent it (null for invitations made before this migration).
--   last_sent_at, sent_count: when it was last emailed and how often.
alter table workspace_tokens
  add column invitation_id uuid,
  add column invited_by uuid,
  add column last_sent_at timestamptz,
  add column sent_count integer not null default 1;

-- Pending invitations made before: their id from the event that recorded them (the team, the
-- address and the time are the same), else a new one (the decider does not know it, so such an
-- invitation is listed and still accepted, but answers 404 to a resend or a revocation).
update workspace_tokens t
set invitation_id = coalesce(
  (select (e.data ->> 'invitation_id')::uuid from events e
   where e.type = 'team.member_invited'
     and e.data ->> 'team_id' = t.team_id::text
     and e.data ->> 'email' = t.email
     and (e.data ->> 'invited_at')::timestamptz = t.created_at
   order by e.position desc limit 1),
  gen_random_uuid()),
  last_sent_at = t.created_at
where t.purpose = 'invitation' and t.invitation_id is null;

create unique index workspace_tokens_invitation_idx on workspace_tokens (invitation_id)
  where invitation_id is not null;
create index workspace_tokens_team_invitations_idx on workspace_tokens (team_id, created_at)
  where purpose = 'invitation';
