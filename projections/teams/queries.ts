import { monthlyOnboardingLimit, isPlan, type Plan } from '../../services/access/contract/plans.ts';
import type { MemberRole } from '../../services/access/contract/roles.ts';
import type { TeamSettings } from '../../services/access/team-events.ts';
import type { StripeAccountOfTeam } from '../../services/access/stripe-account-state.ts';
import { knownZone } from '../../services/onboardings/deadlines.ts';
import {
  DEFAULT_REMINDER_SCHEDULE,
  type ReminderRule,
} from '../../services/onboardings/contract/reminder-schedule.ts';
import { DEFAULT_NEW_RECIPIENT_CAP } from '../../services/onboardings/send-policy.ts';
import { isUuid } from '../../shared/ids/uuid.ts';
import type { ReadClient } from '../read-client.ts';

/**
 * The reads other code may run on the `teams` and `team_members` read models
 * (./projection.ts writes them). Each takes the read client (../read-client.ts): a pool,
 * or the connection of the command's transaction.
 */

/**
 * A `teams` row (infra/migrations/010_teams_members_api_keys.sql, 083, 086, 136): the team's
 * settings as the events name them, but the plan as stored text and the monthly limit in
 * two columns, its Stripe account, then its branding.
 */
export interface TeamRow
  extends Omit<TeamSettings, 'plan' | 'monthly_onboarding_limit'>, StripeAccountOfTeam {
  id: string;
  plan: string;
  monthly_onboarding_limit: number | null;
  monthly_onboarding_unlimited: boolean;
  accent_color: string | null;
  logo_sha256: string | null;
  logo_content_type: string | null;
  /** null: the default schedule. */
  reminder_schedule: ReminderRule[] | null;
}

const TEAM_ROW_COLUMNS = `id, name, plan, timezone, locale, date_format, email_sender_name, sending_paused,
  payments_connected, monthly_onboarding_limit, monthly_onboarding_unlimited, unpaid, new_recipient_cap,
  accent_color, logo_sha256, logo_content_type, reminder_schedule, stripe_account_id, stripe_account_state`;

/** The team's row; undefined for an unknown team. */
export async function teamById(db: ReadClient, teamId: string): Promise<TeamRow | undefined> {
  const { rows } = await db.query<TeamRow>(`select ${TEAM_ROW_COLUMNS} from teams where id = $1`, [teamId]);
  return rows[0];
}

/** The team's connected Stripe account and its state; null for an unknown team. */
export async function stripeAccountOfTeam(
  db: ReadClient,
  teamId: string,
): Promise<StripeAccountOfTeam | null> {
  if (!isUuid(teamId)) return null;
  const { rows } = await db.query<StripeAccountOfTeam>(
    'select stripe_account_id, stripe_account_state from teams where id = $1',
    [teamId],
  );
  return rows[0] ?? null;
}

/**
 * The team whose connected account this is; null when none. Only the operator can give two
 * teams one account: then the first created answers.
 */
export async function teamOfStripeAccount(db: ReadClient, accountId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    'select id from teams where stripe_account_id = $1 order by created_at, id limit 1',
    [accountId],
  );
  return rows[0]?.id ?? null;
}

/** The team as a signed-in member's answers name it. */
export async function teamSummary(
  db: ReadClient,
  teamId: string,
): Promise<{ id: string; name: string; plan: string; locale: string } | undefined> {
  const { rows } = await db.query<{ id: string; name: string; plan: string; locale: string }>(
    'select id, name, plan, locale from teams where id = $1',
    [teamId],
  );
  return rows[0];
}

/** The language a member chose (team.member_locale_chosen); null: they read the team's. */
export async function memberLocale(db: ReadClient, memberId: string): Promise<string | null> {
  const { rows } = await db.query<{ locale: string | null }>(
    'select locale from team_members where id = $1',
    [memberId],
  );
  return rows[0]?.locale ?? null;
}

/** Whether the team has a row. */
export async function teamExists(db: ReadClient, teamId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from teams where id = $1', [teamId]);
  return (rowCount ?? 0) > 0;
}

/** The cap of the team's onboardings per month: its plan's, or the operator's override. */
export function teamMonthlyLimit(
  team: Pick<TeamRow, 'monthly_onboarding_limit' | 'monthly_onboarding_unlimited'> & { plan: Plan },
): number | 'unlimited' {
  return monthlyOnboardingLimit(
    team.plan,
    team.monthly_onboarding_unlimited ? 'unlimited' : team.monthly_onboarding_limit,
  );
}

/** What onboarding commands read of the team. */
export interface TeamFacts {
  id: string;
  name: string;
  plan: Plan;
  timezone: string;
  email_sender_name: string | null;
  sending_paused: boolean;
  /** No self-serve owner of the team is waiting to verify their email (access/workspace/email-verification.ts). */
  email_verified: boolean;
  payments_connected: boolean;
  monthly_limit: number | 'unlimited';
  unpaid: boolean;
  new_recipient_cap: number;
  /** The default reminder schedule of the team's new onboardings. */
  reminder_schedule: ReminderRule[];
}

/** The columns `toTeamFacts` reads, selected from `teams` (for a query that reads more besides). */
export type TeamFactsRow = Pick<
  TeamRow,
  | 'id'
  | 'name'
  | 'plan'
  | 'timezone'
  | 'email_sender_name'
  | 'sending_paused'
  | 'payments_connected'
  | 'monthly_onboarding_limit'
  | 'monthly_onboarding_unlimited'
  | 'unpaid'
  | 'new_recipient_cap'
  | 'reminder_schedule'
> & { email_verified: boolean };

export const TEAM_FACTS_COLUMNS = `id, name, plan, timezone, email_sender_name, sending_paused, payments_connected,
  monthly_onboarding_limit, monthly_onboarding_unlimited, unpaid, new_recipient_cap, reminder_schedule,
  not exists (select 1 from team_email_verifications v where v.team_id = teams.id and v.verified_at is null)
    as email_verified`;

/** The team as onboarding commands see it; undefined for an unknown team or plan. */
export async function teamFacts(db: ReadClient, teamId: string): Promise<TeamFacts | undefined> {
  const { rows } = await db.query<TeamFactsRow>(`select ${TEAM_FACTS_COLUMNS} from teams where id = $1`, [
    teamId,
  ]);
  return toTeamFacts(rows[0]);
}

export function toTeamFacts(row: TeamFactsRow | undefined): TeamFacts | undefined {
  if (!row || !isPlan(row.plan)) return undefined;
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    timezone: knownZone(row.timezone),
    email_sender_name: row.email_sender_name,
    sending_paused: row.sending_paused,
    email_verified: row.email_verified,
    payments_connected: row.payments_connected,
    monthly_limit: teamMonthlyLimit({ ...row, plan: row.plan }),
    unpaid: row.unpaid,
    new_recipient_cap: row.new_recipient_cap ?? DEFAULT_NEW_RECIPIENT_CAP,
    reminder_schedule: row.reminder_schedule ?? [...DEFAULT_REMINDER_SCHEDULE],
  };
}

/** A team with the name of its first current owner (automation's firm name). */
export interface TeamWithOwner extends Pick<
  TeamRow,
  'id' | 'name' | 'plan' | 'timezone' | 'date_format' | 'email_sender_name'
> {
  owner_name: string | null;
}

export async function teamWithOwner(db: ReadClient, teamId: string): Promise<TeamWithOwner | undefined> {
  const { rows } = await db.query<TeamWithOwner>(
    `select t.id, t.name, t.plan, t.timezone, t.date_format, t.email_sender_name,
            (select m.name from team_members m
             where m.team_id = t.id and m.role = 'owner' and m.removed_at is null
             order by m.created_at, m.id limit 1) as owner_name
     from teams t where t.id = $1`,
    [teamId],
  );
  return rows[0];
}

/** The email of the team's first current owner; undefined when it has none. */
export async function firstOwnerEmail(db: ReadClient, teamId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string }>(
    `select email from team_members where team_id = $1 and role = 'owner' and removed_at is null
     order by created_at, id limit 1`,
    [teamId],
  );
  return rows[0]?.email;
}

/**
 * The current logo of a team (its bytes from the operational table team_logos, under the
 * SHA-256 the teams row names), or undefined when it has none.
 */
export async function currentTeamLogo(
  db: ReadClient,
  teamId: string,
): Promise<{ sha256: string; content_type: string; content: Buffer } | undefined> {
  const { rows } = await db.query<{ sha256: string; content_type: string; content: Buffer }>(
    `select l.sha256, l.content_type, l.content
     from teams t join team_logos l on l.team_id = t.id and l.sha256 = t.logo_sha256
     where t.id = $1`,
    [teamId],
  );
  return rows[0];
}

export interface CurrentMember {
  name: string;
  email: string;
}

/**
 * A current member of the team: one of its members (team_members) that has not been
 * removed. Undefined for anyone else: a removed member, another team's, an unknown or
 * malformed id. Assignees, signers and the recipients of Notify team member are current
 * members only.
 */
export async function currentMember(
  db: ReadClient,
  teamId: string,
  memberId: string,
): Promise<CurrentMember | undefined> {
  if (!isUuid(memberId)) return undefined;
  const { rows } = await db.query<CurrentMember>(
    'select name, email from team_members where id = $1 and team_id = $2 and removed_at is null',
    [memberId, teamId],
  );
  return rows[0];
}

/** A current member as the members list answers it. */
export interface MemberListing {
  id: string;
  name: string;
  email: string;
  role: MemberRole;
  created_at: Date;
}

/** The team's current members (not removed), oldest first. */
export async function currentMembers(db: ReadClient, teamId: string): Promise<MemberListing[]> {
  const { rows } = await db.query<MemberListing>(
    `select id, name, email, role, created_at from team_members
     where team_id = $1 and removed_at is null order by created_at, id`,
    [teamId],
  );
  return rows;
}

/** The name of every member the team has had, removed ones too, by member id. */
export async function memberNames(db: ReadClient, teamId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: string; name: string }>(
    'select id, name from team_members where team_id = $1',
    [teamId],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}
