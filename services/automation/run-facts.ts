import { openSealed } from '../../shared/privacy/personal-data-vault.ts';
import { storedValue } from '../../shared/privacy/sealed-columns.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import type { TeamWithOwner } from '../../projections/teams/queries.ts';
import { formatDueDate, type PlaceholderValues } from './placeholders.ts';

/**
 * What Send email and Notify team member read when the action runs (not when the event
 * occurred): the team, the onboarding and its client, from the read models.
 */

/** The name a team has before anyone renames it (signup placeholder); then the owner's name is the firm name. */
export const SIGNUP_PLACEHOLDER_TEAM_NAME = 'My Team';

/** Notify team member is emailed from the service itself, under this name. */
export const SERVICE_SENDER_NAME = 'Client Onboarding';

export const isSignupPlaceholder = (name: string) =>
  name.trim() === '' || name.trim().toLowerCase() === SIGNUP_PLACEHOLDER_TEAM_NAME.toLowerCase();

/**
 * The firm name clients see (Send email's sender and its {{team_name}}): the email sender
 * name from branding, else the team name; while the team name is still the signup
 * placeholder, the owner's name (the team name when there is no owner).
 */
export function firmName(team: Pick<TeamWithOwner, 'name' | 'email_sender_name' | 'owner_name'>): string {
  const sender = team.email_sender_name?.trim();
  if (sender) return sender;
  if (isSignupPlaceholder(team.name) && team.owner_name?.trim()) return team.owner_name.trim();
  return team.name;
}

/**
 * SQL condition on the clients row `c`: the client is not erased (client_is_erased,
 * infra/migrations/082_client_is_erased.sql) and no erasure of it is under way: an erasure
 * erases its personal data key first, before the clients read model catches up, so nothing
 * read meanwhile copies the client's data anywhere.
 */
export const CLIENT_NOT_ERASED = `not client_is_erased(c.erased_at, c.email) and not exists (
  select 1 from personal_data_keys k where k.subject_id = c.id and k.erased_at is not null)`;

export interface OnboardingFacts {
  status: string;
  client_id: string;
  progress_pct: number;
  due_date: string | null;
  due_on: string | null;
  template_name: string;
  client_name: string | null;
  client_email: string | null;
  client_company: string | null;
  client_date_format: string | null;
  client_timezone: string | null;
}

export async function onboardingFacts(
  db: Pick<PoolClient, 'query'>,
  teamId: string,
  onboardingId: string,
): Promise<OnboardingFacts | undefined> {
  const { rows } = await db.query<OnboardingFacts>(
    `select o.status, o.client_id, o.progress_pct, o.due_date, o.due_on, o.template_name,
            c.name as client_name, c.email as client_email, c.company as client_company,
            c.date_format as client_date_format, c.timezone as client_timezone
     from onboardings o
     left join clients c on c.id = o.client_id and c.team_id = o.team_id and ${CLIENT_NOT_ERASED}
     where o.id = $1 and o.team_id = $2`,
    [onboardingId, teamId],
  );
  const row = rows[0];
  if (!row) return undefined;
  // Sealed at rest (sealed-columns.ts): opened with the key table as it is now.
  const [name, email, company] = await openSealed(
    db,
    [row.client_name, row.client_email, row.client_company].map(storedValue),
  );
  return { ...row, client_name: name ?? null, client_email: email ?? null, client_company: company ?? null };
}

/** A usable recipient address: one @, a dotted domain, no spaces, at most 254 characters. */
export const isValidEmail = (email: string | null | undefined): email is string =>
  typeof email === 'string' && email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);

/**
 * Placeholder values. {{due_date}} is written in the reader's date format: the client's
 * (Send email goes to the client) or the team's (Notify team member).
 */
export function placeholderValues(
  facts: OnboardingFacts,
  teamName: string,
  eventType: string,
  dateStyle: { date_format: string; timezone: string },
): PlaceholderValues {
  return {
    client_name: facts.client_name ?? '',
    client_email: facts.client_email ?? '',
    team_name: teamName,
    template_name: facts.template_name,
    company: facts.client_company ?? '',
    due_date: formatDueDate(facts, dateStyle.date_format, dateStyle.timezone),
    progress_pct: String(facts.progress_pct),
    event_type: eventType,
  };
}
