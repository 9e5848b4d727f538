import type { Pool } from 'pg';
import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import {
  DEFAULT_CHANNEL,
  NOTIFICATION_KINDS,
  NOTIFICATIONS_PAGE_SIZE,
  type Notification,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationsAnswer,
} from './contract/notifications.ts';

type Db = Pick<Pool, 'query'>;

/**
 * The reads and writes of one member's notifications and choices. Every statement names
 * the team and the member of the session: another member's rows, or another team's, are
 * never read nor changed.
 */

export interface Member {
  teamId: string;
  memberId: string;
}

interface Row {
  id: string;
  kind: NotificationKind;
  onboarding_id: string;
  client_id: string | null;
  template_name: string;
  occurred_at: Date;
  read_at: Date | null;
}

/** One page of the member's in-app notifications, newest first, with the unread count. */
export async function listNotifications(
  db: Db,
  vault: Pick<PersonalDataVault, 'openAll'>,
  member: Member,
  page: number,
): Promise<NotificationsAnswer> {
  const scope = [member.teamId, member.memberId];
  const [{ rows }, counts] = await Promise.all([
    db.query<Row>(
      `select id, kind, onboarding_id, client_id, template_name, occurred_at, read_at from notifications
       where team_id = $1 and member_id = $2 and in_app
       order by created_at desc, position desc limit $3 offset $4`,
      [...scope, NOTIFICATIONS_PAGE_SIZE, (page - 1) * NOTIFICATIONS_PAGE_SIZE],
    ),
    db.query<{ total: number; unread: number }>(
      `select count(*)::int as total, (count(*) filter (where read_at is null))::int as unread
       from notifications where team_id = $1 and member_id = $2 and in_app`,
      scope,
    ),
  ]);
  const names = await clientNames(db, vault, member.teamId, rows);
  return {
    data: rows.map((row): Notification => ({
      id: row.id,
      kind: row.kind,
      onboarding_id: row.onboarding_id,
      client_name: (row.client_id && names.get(row.client_id)) || null,
      template_name: row.template_name,
      occurred_at: row.occurred_at.toISOString(),
      read: row.read_at !== null,
    })),
    unread_count: counts.rows[0]?.unread ?? 0,
    total: counts.rows[0]?.total ?? 0,
    page,
    page_size: NOTIFICATIONS_PAGE_SIZE,
  };
}

/**
 * The names of the page's clients, read now from the clients read model: an erased
 * client's name is gone from there (and its key with it), so no notification shows it.
 */
async function clientNames(
  db: Db,
  vault: Pick<PersonalDataVault, 'openAll'>,
  teamId: string,
  rows: Row[],
): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((row) => (row.client_id ? [row.client_id] : [])))];
  if (ids.length === 0) return new Map();
  const { rows: clients } = await db.query<{ id: string; name: string | null }>(
    `select id, name from clients
     where team_id = $1 and id = any($2::uuid[]) and not client_is_erased(erased_at, email)`,
    [teamId, ids],
  );
  const opened = await openTextColumns(vault, clients, ['name']);
  return new Map(opened.flatMap((client) => (client.name ? [[client.id, client.name] as const] : [])));
}

/** Marks the member's notifications read: those of `ids`, or all. Answers the unread count. */
export async function markRead(
  db: Db,
  member: Member,
  which: { ids: string[] } | { all: true },
  now: Date,
): Promise<number> {
  const ids = 'ids' in which ? which.ids : null;
  await db.query(
    `update notifications set read_at = $3
     where team_id = $1 and member_id = $2 and in_app and read_at is null
       and ($4::uuid[] is null or id = any($4::uuid[]))`,
    [member.teamId, member.memberId, now, ids],
  );
  const { rows } = await db.query<{ unread: number }>(
    `select count(*)::int as unread from notifications
     where team_id = $1 and member_id = $2 and in_app and read_at is null`,
    [member.teamId, member.memberId],
  );
  return rows[0]?.unread ?? 0;
}

/** The member's choice for every kind (a kind never chosen reads the default). */
export async function readPreferences(db: Db, member: Member): Promise<NotificationPreferences> {
  const { rows } = await db.query<{ kind: NotificationKind; channel: NotificationChannel }>(
    'select kind, channel from notification_preferences where team_id = $1 and member_id = $2',
    [member.teamId, member.memberId],
  );
  const chosen = new Map(rows.map((row) => [row.kind, row.channel]));
  return Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? DEFAULT_CHANNEL]),
  ) as NotificationPreferences;
}

/**
 * Stores the member's choice for every kind; a notification waiting for the digest of a kind
 * no longer emailed is not emailed.
 */
export async function writePreferences(
  db: Db,
  member: Member,
  preferences: NotificationPreferences,
  now: Date,
): Promise<void> {
  await db.query(
    `insert into notification_preferences (member_id, team_id, kind, channel, updated_at)
     select $1, $2, kind, channel, $5 from unnest($3::text[], $4::text[]) as chosen(kind, channel)
     on conflict (member_id, kind) do update set channel = excluded.channel, updated_at = excluded.updated_at`,
    [
      member.memberId,
      member.teamId,
      [...NOTIFICATION_KINDS],
      NOTIFICATION_KINDS.map((kind) => preferences[kind]),
      now,
    ],
  );
  await db.query(
    `update notifications set email_state = 'none'
     where team_id = $1 and member_id = $2 and email_state = 'pending' and kind = any($3::text[])`,
    [member.teamId, member.memberId, NOTIFICATION_KINDS.filter((kind) => preferences[kind] !== 'email')],
  );
}
