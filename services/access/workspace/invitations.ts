import type { ReadClient } from '../../../projections/read-client.ts';
import type { MemberRole } from '../contract/roles.ts';

/**
 * The invitations' operational rows: workspace_tokens of purpose 'invitation'. Each takes a
 * pool or the connection of the command's transaction; route files call these and hold no SQL.
 */

/** A pending (unused) invitation, with the name of the member who sent it. */
export interface PendingInvitationRow {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  invited_by_id: string | null;
  invited_by_name: string | null;
  created_at: Date;
  last_sent_at: Date | null;
  sent_count: number;
  expires_at: Date;
}

const PENDING = `
  select t.invitation_id as id, t.email, t.name, t.role, t.invited_by as invited_by_id,
         m.name as invited_by_name, t.created_at, t.last_sent_at, t.sent_count, t.expires_at
  from workspace_tokens t
  left join team_members m on m.id = t.invited_by and m.team_id = t.team_id
  where t.purpose = 'invitation' and t.team_id = $1 and t.used_at is null and t.invitation_id is not null`;

/** The team's pending invitations, newest first. */
export async function pendingInvitations(db: ReadClient, teamId: string): Promise<PendingInvitationRow[]> {
  const { rows } = await db.query<PendingInvitationRow>(
    `${PENDING} order by t.created_at desc, t.invitation_id`,
    [teamId],
  );
  return rows;
}

/** One pending invitation of the team; undefined for any other id. */
export async function pendingInvitation(
  db: ReadClient,
  teamId: string,
  invitationId: string,
): Promise<PendingInvitationRow | undefined> {
  const { rows } = await db.query<PendingInvitationRow>(`${PENDING} and t.invitation_id = $2`, [
    teamId,
    invitationId,
  ]);
  return rows[0];
}

/** Writes a new invitation's link (sent now). */
export async function insertInvitation(
  db: ReadClient,
  invitation: {
    tokenHash: string;
    teamId: string;
    email: string;
    name: string;
    role: MemberRole;
    expiresAt: Date;
    now: Date;
    invitationId: string;
    invitedBy: string;
  },
): Promise<void> {
  const { tokenHash, teamId, email, name, role, expiresAt, now, invitationId, invitedBy } = invitation;
  await db.query(
    `insert into workspace_tokens (token_hash, purpose, team_id, email, name, role, expires_at, created_at,
       invitation_id, invited_by, last_sent_at)
     values ($1, 'invitation', $2, $3, $4, $5, $6, $7, $8, $9, $7)`,
    [tokenHash, teamId, email, name, role, expiresAt, now, invitationId, invitedBy],
  );
}

/** The invitation of an unused, unexpired link; undefined for any other. */
export async function openInvitation(
  db: ReadClient,
  tokenHash: string,
  now: Date,
): Promise<{ team_id: string; email: string; role: MemberRole } | undefined> {
  const { rows } = await db.query<{ team_id: string; email: string; role: MemberRole }>(
    `select team_id, email, role from workspace_tokens
     where token_hash = $1 and purpose = 'invitation' and used_at is null and expires_at > $2`,
    [tokenHash, now],
  );
  return rows[0];
}

/** Gives a pending invitation a new link (the older one stops working); false when it is gone. */
export async function replaceInvitationLink(
  db: ReadClient,
  link: { invitationId: string; teamId: string; tokenHash: string; expiresAt: Date; now: Date },
): Promise<boolean> {
  const replaced = await db.query(
    `update workspace_tokens
     set token_hash = $3, expires_at = $4, last_sent_at = $5, sent_count = sent_count + 1
     where invitation_id = $1 and team_id = $2 and purpose = 'invitation' and used_at is null`,
    [link.invitationId, link.teamId, link.tokenHash, link.expiresAt, link.now],
  );
  return replaced.rowCount === 1;
}

/** Deletes a pending invitation's link; false when it is gone. */
export async function deleteInvitation(
  db: ReadClient,
  teamId: string,
  invitationId: string,
): Promise<boolean> {
  const revoked = await db.query(
    `delete from workspace_tokens
     where invitation_id = $1 and team_id = $2 and purpose = 'invitation' and used_at is null`,
    [invitationId, teamId],
  );
  return revoked.rowCount === 1;
}

/** What the invitation page shows before accepting: the team, who invited, the invited address. */
export interface InvitationPageRow {
  team_name: string;
  invited_by_name: string | null;
  email: string;
  role: MemberRole;
  expires_at: Date;
}

/** The open invitation of a link's hash (unused, not expired); undefined otherwise. */
export async function invitationPage(
  db: ReadClient,
  tokenHash: string,
  now: Date,
): Promise<InvitationPageRow | undefined> {
  const { rows } = await db.query<InvitationPageRow>(
    `select tm.name as team_name, m.name as invited_by_name, t.email, t.role, t.expires_at
     from workspace_tokens t
     join teams tm on tm.id = t.team_id
     left join team_members m on m.id = t.invited_by and m.team_id = t.team_id
     where t.token_hash = $1 and t.purpose = 'invitation' and t.used_at is null and t.expires_at > $2`,
    [tokenHash, now],
  );
  return rows[0];
}
