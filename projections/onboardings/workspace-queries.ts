import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import { itemHead, type ClientOpener } from './queries.ts';
import { z } from 'zod';
import type { Pool } from '../../shared/db/pool.ts';
import { isPlan, type Plan } from '../../services/access/contract/plans.ts';
import { cappedCountOf, LIST_COUNT_CAP, parsedRows, SqlParams, type ReadClient } from '../read-client.ts';
import { teamById, teamMonthlyLimit, type TeamRow } from '../teams/queries.ts';
import { knownZone, usageMonth } from '../../services/onboardings/deadlines.ts';
import { ONBOARDING_STATUSES, type OnboardingStatus } from '../../services/onboardings/onboarding-events.ts';
import { reviewState } from './fold.ts';
import { answersAwaitingReviewSql, awaitingReviewColumnSql, awaitingReviewSql } from './awaiting-review.ts';
import { clientIdsMatchingSearch, queryTokens } from '../../services/clients/client-search-index.ts';
import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';

/**
 * The workspace's reads of onboardings: the read model (projections/onboardings/projection.ts)
 * with its client, template and assignee, plus the link's state; and the month's usage.
 * An onboarding whose client was erased is never listed or found (as in the public API).
 */

/**
 * The due filter: `overdue` the due date passed and the onboarding is still open (draft,
 * sent or in progress); `week` due from now to 7 days ahead; `none` without a due date.
 */
export const DUE_FILTERS = ['overdue', 'week', 'none'] as const;

/**
 * not_sent: a draft; active: the client's link works now; completed: it opens the client's
 * finished form (and the answers a review sends back); inactive: cancelled, archived
 * or expired.
 */
export const LINK_STATES = ['not_sent', 'active', 'completed', 'inactive'] as const;

const OPEN = ['draft', 'sent', 'in_progress'];

/** The list's orders: created, due (none last), status (in lifecycle order), client (by name). */
export const LIST_SORTS = ['created', 'due', 'status', 'client'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
/** The review filter: answers the client sent wait on the team (awaiting-review.ts). */
export const REVIEW_FILTERS = ['awaiting_review'] as const;
/** Client names are sealed: sorting by client opens the names of at most this many matching rows. */
export const CLIENT_SORT_MAX = 5000;

export const workspaceOnboardingItem = z.object({
  id: z.string().uuid(),
  status: z.enum(ONBOARDING_STATUSES),
  progress_pct: z.number().int(),
  created_at: z.string(),
  due_date: z.string().nullable(),
  due_on: z.string().nullable(),
  overdue: z.boolean(),
  expires_at: z.string().nullable(),
  assigned_to: z.string().nullable(),
  assignee_name: z.string().nullable(),
  archived_at: z.string().nullable(),
  send_count: z.number().int(),
  last_sent_at: z.string().nullable(),
  link: z.enum(LINK_STATES),
  review_state: z
    .enum(['changes_requested', 'awaiting_review'])
    .nullable()
    .describe(
      'workspace only, beside the public status: changes_requested while answers sent back wait on the client; awaiting_review while answers the client submitted wait on the team (projections/onboardings/awaiting-review.ts)',
    ),
  answers_awaiting_review: z.number().int().describe('answers the client submitted that wait on the team'),
  client: z.object({ id: z.string().uuid(), name: z.string().nullable(), email: z.string().nullable() }),
  template: z.object({ id: z.string().uuid(), name: z.string() }),
});
export const workspaceOnboarding = workspaceOnboardingItem.extend({
  template_snapshot: z.record(z.unknown()),
});
export type WorkspaceOnboardingItem = z.infer<typeof workspaceOnboardingItem>;

const row = z.object({
  id: z.string(),
  status: z.enum(ONBOARDING_STATUSES),
  progress_pct: z.number(),
  created_at: z.date(),
  due_date: z.string().nullable(),
  due_on: z.string().nullable(),
  due_at: z.date().nullable(),
  expires_at: z.string().nullable(),
  assigned_to: z.string().nullable(),
  assignee_name: z.string().nullable(),
  archived_at: z.date().nullable(),
  send_count: z.number(),
  last_sent_at: z.date().nullable(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  client_email: z.string().nullable(),
  template_id: z.string(),
  template_name: z.string(),
  review_fields: z.record(z.string()),
  awaiting_review: z.boolean(),
  answers_awaiting_review: z.number(),
});

function linkState(value: z.infer<typeof row>, now: Date): WorkspaceOnboardingItem['link'] {
  if (value.status === 'draft') return 'not_sent';
  // As the form page decides (services/onboardings/portal/portal-face.ts): completion before expiry.
  if (value.status === 'completed') return value.archived_at === null ? 'completed' : 'inactive';
  const expired = value.expires_at !== null && Date.parse(value.expires_at) <= now.getTime();
  const open = value.status === 'sent' || value.status === 'in_progress';
  return open && value.archived_at === null && !expired ? 'active' : 'inactive';
}

const toItem = (value: z.infer<typeof row>, now: Date): WorkspaceOnboardingItem => ({
  ...itemHead(value),
  overdue: value.due_at !== null && value.due_at <= now && OPEN.includes(value.status),
  expires_at: value.expires_at,
  assigned_to: value.assigned_to,
  assignee_name: value.assignee_name,
  archived_at: value.archived_at?.toISOString() ?? null,
  send_count: value.send_count,
  last_sent_at: value.last_sent_at?.toISOString() ?? null,
  link: linkState(value, now),
  // "Changes requested" as the page folds it; "waiting for review" the one SQL definition.
  review_state:
    reviewState(value.status, value.review_fields) === 'changes_requested'
      ? 'changes_requested'
      : value.awaiting_review
        ? 'awaiting_review'
        : null,
  answers_awaiting_review: value.answers_awaiting_review,
  client: { id: value.client_id, name: value.client_name, email: value.client_email },
  template: { id: value.template_id, name: value.template_name },
});

export interface SearchQuery {
  limit?: number;
  offset?: number;
  id?: string;
  status?: OnboardingStatus;
  assignee?: string;
  due?: (typeof DUE_FILTERS)[number];
  archived?: 'hide' | 'only';
  /** Client name or email (blind index tokens, client-search-index.ts) or template name. */
  q?: string;
  review?: (typeof REVIEW_FILTERS)[number];
  sort?: ListSort;
  dir?: 'asc' | 'desc';
  /** Only these onboardings (the bulk actions' selection). */
  ids?: readonly string[];
}

/** The conditions of a search, their values numbered in `params`. */
function searchConditions(
  params: SqlParams,
  teamId: string,
  at: string,
  query: SearchQuery,
  tokens: string[],
): string[] {
  const conditions = [
    `o.team_id = ${params.add(teamId)}`,
    'o.client_erased_at is null and not client_is_erased(c.erased_at, c.email)',
  ];
  if (query.id) conditions.push(`o.id = ${params.add(query.id)}`);
  else if (query.archived === 'only') conditions.push('o.archived_at is not null');
  else conditions.push('o.archived_at is null');
  if (query.ids) conditions.push(`o.id = any(${params.add(query.ids)}::uuid[])`);
  if (query.status) conditions.push(`o.status = ${params.add(query.status)}`);
  if (query.review === 'awaiting_review') conditions.push(awaitingReviewSql('o'));
  const text = query.q?.trim();
  if (text) {
    // The client's words through the blind index (sealed at rest), or the template's name.
    const template = `o.template_name ilike ${params.add(`%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`)}`;
    const client = tokens.length
      ? `o.client_id in (${clientIdsMatchingSearch(params, teamId, tokens)})`
      : 'false';
    conditions.push(`(${template} or ${client})`);
  }
  if (query.assignee === 'unassigned') conditions.push('o.assigned_to is null');
  else if (query.assignee) conditions.push(`o.assigned_to = ${params.add(query.assignee)}`);
  if (query.due === 'none') conditions.push('o.due_at is null');
  if (query.due === 'overdue') {
    conditions.push(
      `o.due_at <= ${params.add(at)}::timestamptz and o.status = any(${params.add(OPEN)}::text[])`,
    );
  }
  if (query.due === 'week') {
    const from = params.add(at);
    conditions.push(
      `o.due_at > ${from}::timestamptz and o.due_at <= ${from}::timestamptz + interval '7 days'`,
    );
  }
  return conditions;
}

/** The client index's tokens of a search's words (none without words): searchOnboardings' `tokens`. */
export const searchTokens = async (
  vault: Pick<PersonalDataVault, 'teamIndexKey'>,
  teamId: string,
  q: string | undefined,
): Promise<string[]> => (q?.trim() ? queryTokens(vault, teamId, q) : []);

const STATUS_ORDER = ['draft', 'sent', 'in_progress', 'completed', 'expired', 'cancelled'];
/**
 * The lifecycle order as a SQL constant, written exactly as the indexes of both status orders
 * write it (infra/migrations/156_large_team_indexes.sql), so the planner reads the page off them.
 */
const STATUS_POSITION = `array_position('{${STATUS_ORDER.join(',')}}'::text[], o.status)`;

/** The SQL order of a sort other than client's. */
function orderBy(sort: ListSort, dir: 'asc' | 'desc'): string {
  const way = dir === 'asc' ? 'asc' : 'desc';
  if (sort === 'due') return `o.due_at ${way} nulls last, o.created_at desc, o.position desc`;
  if (sort === 'status') return `${STATUS_POSITION} ${way}, o.created_at desc, o.position desc`;
  return `o.created_at ${way}, o.position ${way}`;
}

const FROM = `
    from onboardings o
    join clients c on c.id = o.client_id and c.team_id = o.team_id
    left join team_members m on m.id = o.assigned_to and m.team_id = o.team_id`;

const COLUMNS = `o.id, o.status, o.progress_pct, o.created_at, o.due_date, o.due_on, o.due_at, o.expires_at,
       o.assigned_to, m.name as assignee_name, o.archived_at, o.send_count, o.last_sent_at,
       o.client_id, c.name as client_name, c.email as client_email, o.template_id, o.template_name,
       o.review_fields, ${awaitingReviewColumnSql('o')} as awaiting_review,
       ${answersAwaitingReviewSql('o')} as answers_awaiting_review`;

const byClient = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/**
 * The page's ids ordered by the client's name (sealed at rest, so opened here): the matching
 * rows' names, at most CLIENT_SORT_MAX, sorted with a collator (docs/decisions/0086).
 */
async function idsByClient(
  db: ReadClient,
  vault: ClientOpener,
  where: string,
  values: unknown[],
  query: SearchQuery,
): Promise<string[]> {
  const head = z.object({
    id: z.string(),
    client_name: z.string().nullable(),
    client_email: z.string().nullable(),
  });
  const rows = await parsedRows(
    db,
    head,
    `select o.id, c.name as client_name, c.email as client_email ${FROM} where ${where}
     order by o.created_at desc, o.position desc limit ${CLIENT_SORT_MAX}`,
    values,
  );
  // The email stands in only for a client without a name: it is opened for those rows alone.
  const opened = await openTextColumns(vault, rows, ['client_name']);
  const unnamed = opened.filter((row) => row.client_name === null);
  const emails = new Map(
    (await openTextColumns(vault, unnamed, ['client_email'])).map((row) => [row.id, row.client_email]),
  );
  const name = (row: (typeof opened)[number]) => row.client_name ?? emails.get(row.id) ?? '';
  opened.sort((a, b) => byClient.compare(name(a), name(b)) * (query.dir === 'desc' ? -1 : 1));
  const from = query.offset ?? 0;
  return opened.slice(from, from + (query.limit ?? 25)).map((row) => row.id);
}

/**
 * The team's onboardings matching `query`, one page in its order, with the total. `tokens`
 * are the client index's tokens of `query.q` (queryTokens of client-search-index.ts).
 */
export async function searchOnboardings(
  db: ReadClient,
  vault: ClientOpener,
  teamId: string,
  now: Date,
  query: SearchQuery,
  tokens: string[] = [],
) {
  const params = new SqlParams();
  const where = searchConditions(params, teamId, now.toISOString(), query, tokens).join(' and ');
  const whereValues = [...params.values];
  const sort = query.sort ?? 'created';
  const total = cappedCountOf(db, `${FROM} where ${where}`, whereValues, LIST_COUNT_CAP);
  let rows: z.infer<typeof row>[];
  if (sort === 'client') {
    const ids = await idsByClient(db, vault, where, whereValues, query);
    const found = await parsedRows(
      db,
      row,
      `select ${COLUMNS} ${FROM} where o.team_id = $1 and o.id = any($2::uuid[])`,
      [teamId, ids],
    );
    const at = new Map(ids.map((id, index) => [id, index]));
    rows = found.sort((a, b) => (at.get(a.id) ?? 0) - (at.get(b.id) ?? 0));
  } else {
    rows = await parsedRows(
      db,
      row,
      `select ${COLUMNS} ${FROM} where ${where}
       order by ${orderBy(sort, query.dir ?? 'desc')}
       limit ${params.add(query.limit ?? 25)} offset ${params.add(query.offset ?? 0)}`,
      params.values,
    );
  }
  // The client's name and email are sealed at rest (shared/privacy/sealed-columns.ts).
  const opened = await openTextColumns(vault, rows, ['client_name', 'client_email']);
  const { count, capped } = await total;
  return { data: opened.map((value) => toItem(value, now)), total: count, total_capped: capped };
}

/** Rows of an export's first page (then `pageSize` at a time). */
const FIRST_EXPORT_PAGE = 100;

/**
 * Every onboarding matching `query`, in the list's order, one page of items at a time (the
 * CSV export): the rows come from one server-side cursor in one read-only transaction, so
 * the export reads the view once, in one snapshot, and holds only a page in memory, however
 * large the team. The client sort keeps its bound (idsByClient: CLIENT_SORT_MAX rows).
 */
export async function* exportOnboardings(
  pool: Pick<Pool, 'connect'>,
  vault: ClientOpener,
  teamId: string,
  now: Date,
  query: SearchQuery,
  tokens: string[] = [],
  pageSize = 1000,
): AsyncGenerator<WorkspaceOnboardingItem[]> {
  const params = new SqlParams();
  const where = searchConditions(params, teamId, now.toISOString(), query, tokens).join(' and ');
  const whereValues = [...params.values];
  const sort = query.sort ?? 'created';
  const db = await pool.connect();
  let open = false;
  try {
    await db.query('begin read only');
    open = true;
    const page = async (rows: z.infer<typeof row>[]) =>
      (await openTextColumns(vault, rows, ['client_name', 'client_email'])).map((value) =>
        toItem(value, now),
      );
    if (sort === 'client') {
      const ids = await idsByClient(db, vault, where, whereValues, {
        ...query,
        offset: 0,
        limit: CLIENT_SORT_MAX,
      });
      for (let from = 0; from < ids.length; from += pageSize) {
        const chunk = ids.slice(from, from + pageSize);
        const found = await parsedRows(
          db,
          row,
          `select ${COLUMNS} ${FROM} where o.team_id = $1 and o.id = any($2::uuid[])`,
          [teamId, chunk],
        );
        const at = new Map(chunk.map((id, index) => [id, index]));
        yield await page(found.sort((a, b) => (at.get(a.id) ?? 0) - (at.get(b.id) ?? 0)));
      }
    } else {
      await db.query(
        `declare export_rows no scroll cursor for
         select ${COLUMNS} ${FROM} where ${where}
         order by ${orderBy(sort, query.dir ?? 'desc')}`,
        params.values,
      );
      // A short first page: the download starts once a few rows are read and opened.
      for (let size = Math.min(FIRST_EXPORT_PAGE, pageSize); ; size = pageSize) {
        const rows = await parsedRows(db, row, `fetch forward ${size} from export_rows`, []);
        if (rows.length > 0) yield await page(rows);
        if (rows.length < size) break;
      }
    }
    await db.query('commit');
    open = false;
  } finally {
    // An export stopped half-way (the browser went away) ends its transaction here.
    let broken = false;
    if (open) await db.query('rollback').catch(() => (broken = true));
    db.release(broken);
  }
}

/** This month's count (first sends and reopens, in the team's time zone) and the plan's limit. */
export async function onboardingUsage(pool: Pool, teamId: string, now: Date) {
  const team = await teamById(pool, teamId);
  if (!team || !isPlan(team.plan))
    throw new Error(`Team ${teamId} of a signed-in member has no read model row`);
  return teamUsage(pool, { ...team, plan: team.plan }, now);
}

/** This month's count and the limit of a team already read (projections/teams/queries.ts). */
export async function teamUsage(db: ReadClient, team: TeamRow & { plan: Plan }, now: Date) {
  const month = usageMonth(now, knownZone(team.timezone));
  const used = await db.query<{ count: number }>(
    'select count(*)::int as count from onboarding_send_usage where team_id = $1 and usage_month = $2',
    [team.id, month],
  );
  return { month, used: used.rows[0]?.count ?? 0, limit: teamMonthlyLimit(team) };
}
