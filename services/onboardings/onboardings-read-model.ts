import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { ONBOARDING_STATUSES, type OnboardingStatus } from './onboarding-events.ts';

/**
 * Reads of the onboardings read model (projections/onboardings-projection.ts) joined with
 * the clients read model for `clients` {id, name, email}. An onboarding whose client was
 * erased (either table says so) is never listed and never found.
 */

export const ARCHIVED_FILTERS = ['false', 'true', 'only', 'all'] as const;
export type ArchivedFilter = (typeof ARCHIVED_FILTERS)[number];

const row = z.object({
  id: z.string(),
  status: z.enum(ONBOARDING_STATUSES),
  progress_pct: z.number(),
  created_at: z.date(),
  due_date: z.string().nullable(),
  due_on: z.string().nullable(),
  due_timezone: z.string().nullable(),
  expires_at: z.string().nullable(),
  assigned_to: z.string().nullable(),
  archived_at: z.date().nullable(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  client_email: z.string().nullable(),
  template_id: z.string(),
  template_name: z.string(),
});

const rowWithSnapshot = row.extend({ template_snapshot: z.record(z.unknown()) });

export const onboardingListItem = z.object({
  id: z.string().uuid(),
  status: z.enum(ONBOARDING_STATUSES),
  progress_pct: z.number().int(),
  created_at: z.string(),
  due_date: z.string().nullable().describe('ISO 8601 with offset'),
  due_on: z.string().nullable().describe('YYYY-MM-DD, set only when the due date was given as a date'),
  due_timezone: z.string().nullable(),
  expires_at: z.string().nullable(),
  assigned_to: z.string().nullable().describe('team member id'),
  archived_at: z.string().nullable(),
  clients: z.object({ id: z.string().uuid(), name: z.string().nullable(), email: z.string().nullable() }),
  templates: z.object({ id: z.string().uuid(), name: z.string() }),
});

export const onboardingDetail = onboardingListItem.extend({ template_snapshot: z.record(z.unknown()) });

export type OnboardingListItem = z.infer<typeof onboardingListItem>;

const toItem = (value: z.infer<typeof row>): OnboardingListItem => ({
  id: value.id,
  status: value.status,
  progress_pct: value.progress_pct,
  created_at: value.created_at.toISOString(),
  due_date: value.due_date,
  due_on: value.due_on,
  due_timezone: value.due_timezone,
  expires_at: value.expires_at,
  assigned_to: value.assigned_to,
  archived_at: value.archived_at === null ? null : value.archived_at.toISOString(),
  clients: { id: value.client_id, name: value.client_name, email: value.client_email },
  templates: { id: value.template_id, name: value.template_name },
});

const COLUMNS = sql.fragment`
  o.id, o.status, o.progress_pct, o.created_at, o.due_date, o.due_on, o.due_timezone, o.expires_at,
  o.assigned_to, o.archived_at, o.client_id, c.name as client_name, c.email as client_email,
  o.template_id, o.template_name`;

/** Onboardings of the team whose client is not erased (client_is_erased, infra/migrations). */
const VISIBLE = (teamId: string) => sql.fragment`
  from onboardings o
  join clients c on c.id = o.client_id and c.team_id = o.team_id
  where o.team_id = ${teamId} and o.client_erased_at is null and not client_is_erased(c.erased_at, c.email)`;

/**
 * archived: `false` (default) leaves archived onboardings out; `only` lists only them;
 * `true` and `all` list both (README).
 */
const archivedFilter = (archived: ArchivedFilter) => {
  if (archived === 'false') return sql.fragment`and o.archived_at is null`;
  if (archived === 'only') return sql.fragment`and o.archived_at is not null`;
  return sql.fragment``;
};

export interface ListQuery {
  limit: number;
  offset: number;
  status?: OnboardingStatus;
  client_id?: string;
  archived: ArchivedFilter;
}

/** The client's name and email stay sealed at rest (sealed-columns.ts): opened here, one key read per page. */
export type ClientOpener = Pick<PersonalDataVault, 'openAll'>;

const openClientColumns = <Row extends z.infer<typeof row>>(vault: ClientOpener, rows: readonly Row[]) =>
  openTextColumns(vault, rows, ['client_name', 'client_email']);

/** Newest first (created_at, then log position). */
export async function listOnboardings(
  db: DatabasePool,
  vault: ClientOpener,
  teamId: string,
  query: ListQuery,
) {
  const filters = sql.fragment`
    ${archivedFilter(query.archived)}
    ${query.status ? sql.fragment`and o.status = ${query.status}` : sql.fragment``}
    ${query.client_id ? sql.fragment`and o.client_id = ${query.client_id}` : sql.fragment``}`;
  const [rows, total] = await Promise.all([
    db.any(sql.type(row)`
      select ${COLUMNS} ${VISIBLE(teamId)} ${filters}
      order by o.created_at desc, o.position desc
      limit ${query.limit} offset ${query.offset}`),
    db.oneFirst(sql.type(z.object({ count: z.number() }))`
      select count(*)::int as count ${VISIBLE(teamId)} ${filters}`),
  ]);
  return { onboardings: (await openClientColumns(vault, rows)).map(toItem), total };
}

/** One onboarding of the team, archived ones included; undefined when unknown, another team's or erased. */
export async function getOnboarding(db: DatabasePool, vault: ClientOpener, teamId: string, id: string) {
  const stored = await db.maybeOne(sql.type(rowWithSnapshot)`
    select ${COLUMNS}, o.template_snapshot ${VISIBLE(teamId)} and o.id = ${id}`);
  const [found] = stored ? await openClientColumns(vault, [stored]) : [];
  return found ? { ...toItem(found), template_snapshot: found.template_snapshot } : undefined;
}
