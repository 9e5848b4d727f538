import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import { parsedRow, type ReadClient } from '../read-client.ts';
import { z } from 'zod';
import { ONBOARDING_STATUSES, type OnboardingStatus } from '../../services/onboardings/onboarding-events.ts';

/**
 * Reads of the onboardings read model (projection.ts) joined with
 * the clients read model for `clients` {id, name, email}. An onboarding whose client was
 * erased (either table says so) is never listed and never found.
 */

export const ARCHIVED_FILTERS = ['false', 'true', 'only', 'all'] as const;
export type ArchivedFilter = (typeof ARCHIVED_FILTERS)[number];

/** A row as pg gives it (timestamptz as Date, jsonb parsed); the table's types hold it. */
interface Row {
  id: string;
  status: OnboardingStatus;
  progress_pct: number;
  created_at: Date;
  due_date: string | null;
  due_on: string | null;
  due_timezone: string | null;
  expires_at: string | null;
  assigned_to: string | null;
  archived_at: Date | null;
  client_id: string;
  client_name: string | null;
  client_email: string | null;
  template_id: string;
  template_name: string;
}

interface RowWithSnapshot extends Row {
  template_snapshot: Record<string, unknown>;
}

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

/** The fields an onboarding's item leads with on both faces (public API and workspace). */
export const itemHead = (
  value: Pick<Row, 'id' | 'status' | 'progress_pct' | 'created_at' | 'due_date' | 'due_on'>,
) => ({
  id: value.id,
  status: value.status,
  progress_pct: value.progress_pct,
  created_at: value.created_at.toISOString(),
  due_date: value.due_date,
  due_on: value.due_on,
});

const toItem = (value: Row): OnboardingListItem => ({
  ...itemHead(value),
  due_timezone: value.due_timezone,
  expires_at: value.expires_at,
  assigned_to: value.assigned_to,
  archived_at: value.archived_at === null ? null : value.archived_at.toISOString(),
  clients: { id: value.client_id, name: value.client_name, email: value.client_email },
  templates: { id: value.template_id, name: value.template_name },
});

/*
 * Static statements, named: the public API reads these on every request, so PostgreSQL
 * parses and plans each once per connection instead of once per request. A list's filters
 * choose one of at most 16 statements (archived × status × client).
 */
const COLUMNS = `
  o.id, o.status, o.progress_pct, o.created_at, o.due_date, o.due_on, o.due_timezone, o.expires_at,
  o.assigned_to, o.archived_at, o.client_id, c.name as client_name, c.email as client_email,
  o.template_id, o.template_name`;

/** Onboardings of team $1 whose client is not erased (client_is_erased, infra/migrations). */
const VISIBLE = `
  from onboardings o
  join clients c on c.id = o.client_id and c.team_id = o.team_id
  where o.team_id = $1 and o.client_erased_at is null and not client_is_erased(c.erased_at, c.email)`;

/**
 * archived: `false` (default) leaves archived onboardings out; `only` lists only them;
 * `true` and `all` list both (docs/decisions/0028-onboardings.md).
 */
const ARCHIVED_CONDITION: Record<ArchivedFilter, string> = {
  false: 'and o.archived_at is null',
  only: 'and o.archived_at is not null',
  true: '',
  all: '',
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

type Reader = ReadClient;

const openClientColumns = <R extends Row>(vault: ClientOpener, rows: readonly R[]) =>
  openTextColumns(vault, rows, ['client_name', 'client_email']);

/** The filters of a list after $1 (the team): their SQL, values and the statement's name. */
function listFilters(query: ListQuery) {
  const values: unknown[] = [];
  let filters = ARCHIVED_CONDITION[query.archived];
  if (query.status) {
    values.push(query.status);
    filters += ` and o.status = $${values.length + 1}`;
  }
  if (query.client_id) {
    values.push(query.client_id);
    filters += ` and o.client_id = $${values.length + 1}`;
  }
  const name = `onboardings_list_${query.archived}_${query.status ? 's' : ''}${query.client_id ? 'c' : ''}`;
  return { filters, values, name };
}

/** Newest first (created_at, then log position). */
export async function listOnboardings(db: Reader, vault: ClientOpener, teamId: string, query: ListQuery) {
  const { filters, values, name } = listFilters(query);
  const page = values.length + 2;
  const [rows, total] = await Promise.all([
    db.query<Row>({
      name: `${name}_page`,
      text: `select ${COLUMNS} ${VISIBLE} ${filters}
             order by o.created_at desc, o.position desc
             limit $${page} offset $${page + 1}`,
      values: [teamId, ...values, query.limit, query.offset],
    }),
    db.query<{ count: number }>({
      name: `${name}_count`,
      text: `select count(*)::int as count ${VISIBLE} ${filters}`,
      values: [teamId, ...values],
    }),
  ]);
  return {
    onboardings: (await openClientColumns(vault, rows.rows)).map(toItem),
    total: total.rows[0]!.count,
  };
}

const BY_ID = {
  name: 'onboarding_by_id',
  text: `select ${COLUMNS}, o.template_snapshot ${VISIBLE} and o.id = $2`,
};

/** One onboarding of the team, archived ones included; undefined when unknown, another team's or erased. */
export async function getOnboarding(db: Reader, vault: ClientOpener, teamId: string, id: string) {
  const { rows } = await db.query<RowWithSnapshot>({ ...BY_ID, values: [teamId, id] });
  const [found] = rows[0] ? await openClientColumns(vault, [rows[0]]) : [];
  return found ? { ...toItem(found), template_snapshot: found.template_snapshot } : undefined;
}

/**
 * The team's onboarding as GET /api/v1/onboardings/:id finds it (archived ones included;
 * unknown, another team's and erased clients' are not found).
 */
export async function visibleOnboardingExists(db: ReadClient, teamId: string, onboardingId: string) {
  const found = await parsedRow(
    db,
    z.object({ id: z.string() }),
    `select o.id from onboardings o
     join clients c on c.id = o.client_id and c.team_id = o.team_id
     where o.id = $1 and o.team_id = $2
       and o.client_erased_at is null and not client_is_erased(c.erased_at, c.email)`,
    [onboardingId, teamId],
  );
  return found !== undefined;
}
