import { z } from 'zod';
import type { ClientOpener } from '../../projections/onboardings/queries.ts';
import {
  answersAwaitingReviewSql,
  awaitingReviewSql,
} from '../../projections/onboardings/awaiting-review.ts';
import { teamUsage } from '../../projections/onboardings/workspace-queries.ts';
import { countOf, parsedRows, type ReadClient } from '../../projections/read-client.ts';
import { teamById } from '../../projections/teams/queries.ts';
import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import { isPlan } from '../access/contract/plans.ts';
import { knownZone, usageMonth } from '../onboardings/deadlines.ts';
import {
  HOME_SECTION_LIMIT,
  HOME_SECTIONS,
  type HomeAnswer,
  type HomeItem,
  type HomeSection,
  type TemplateFigures,
} from './contract/home.ts';

/*
 * Home's reads (GET /workspace/v1/home): one bounded statement per section over the
 * onboardings read model, each ordering the signed-in member's own onboardings first and
 * counting the section's total beside its first rows; then the month's usage and the
 * month's figures per template. $1 is the team, $2 the member, $3 now.
 */

// OPEN and CHANGES_REQUESTED are the predicates of their sections' partial indexes, word for
// word (infra/migrations/159_home_section_indexes.sql); a change to one changes the other.
const OPEN = `o.status in ('draft', 'sent', 'in_progress')`;
/** "Changes requested" as reviewState (projections/onboardings/fold.ts) folds it. */
const CHANGES_REQUESTED = `(o.status in ('in_progress', 'completed') and o.review_fields @? '$.* ? (@ == "sent_back")')`;

/** Each section's condition and its order after "assigned to me first". */
const SECTIONS: Record<HomeSection, { where: string; order: string }> = {
  // Oldest waiting first: the client has waited longest.
  awaiting_review: { where: awaitingReviewSql('o'), order: 'o.updated_at asc' },
  changes_requested: { where: CHANGES_REQUESTED, order: 'o.updated_at asc' },
  overdue: { where: `${OPEN} and o.due_at <= $3::timestamptz`, order: 'o.due_at asc' },
  due_this_week: {
    where: `${OPEN} and o.due_at > $3::timestamptz and o.due_at <= $3::timestamptz + interval '7 days'`,
    order: 'o.due_at asc',
  },
  // The fold sets updated_at to the completion's time (docs/decisions/0081-home.md).
  recently_completed: {
    where: `o.status = 'completed' and o.updated_at > $3::timestamptz - interval '7 days'`,
    order: 'o.updated_at desc',
  },
  drafts: { where: `o.status = 'draft'`, order: 'o.created_at desc' },
};

const itemRow = z.object({
  id: z.string(),
  status: z.string(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  client_email: z.string().nullable(),
  template_id: z.string(),
  template_name: z.string(),
  due_at: z.date().nullable(),
  updated_at: z.date(),
  assigned_to: z.string().nullable(),
  assignee_name: z.string().nullable(),
  mine: z.boolean(),
  answers: z.number(),
  total: z.number(),
});

/** One section's statement and its values: its first rows, each with the section's total. */
export function sectionStatement(section: HomeSection, teamId: string, memberId: string, now: Date) {
  const { where, order } = SECTIONS[section];
  // The section's total counts every match (read off the indexes alone); the client's sealed
  // name and email, the assignee and the answers waiting are read for its first rows only.
  const outer = order.replace(/\bo\./g, 's.');
  const text = `select s.id, s.status, s.client_id, c.name as client_name, c.email as client_email,
            s.template_id, s.template_name, s.due_at, s.updated_at, s.assigned_to,
            m.name as assignee_name, s.mine, ${answersAwaitingReviewSql('s')} as answers, s.total
       from (
         select o.id, o.status, o.client_id, o.template_id, o.template_name, o.due_at, o.updated_at,
                o.created_at, o.position, o.assigned_to, coalesce(o.assigned_to = $2::uuid, false) as mine,
                count(*) over ()::int as total
           from onboardings o
           join clients c on c.id = o.client_id and c.team_id = o.team_id
          where o.team_id = $1 and o.archived_at is null
            and o.client_erased_at is null and not client_is_erased(c.erased_at, c.email)
            and ${where}
          order by mine desc, ${order}, o.position desc
          limit ${HOME_SECTION_LIMIT}
       ) s
       join clients c on c.id = s.client_id and c.team_id = $1
       left join team_members m on m.id = s.assigned_to and m.team_id = $1
      order by s.mine desc, ${outer}, s.position desc`;
  // Only the sections about time are given now (PostgreSQL refuses a parameter unused).
  const values = where.includes('$3') ? [teamId, memberId, now.toISOString()] : [teamId, memberId];
  return { text, values };
}

function sectionRows(db: ReadClient, section: HomeSection, teamId: string, memberId: string, now: Date) {
  const { text, values } = sectionStatement(section, teamId, memberId, now);
  return parsedRows(db, itemRow, text, values);
}

const toItem = (row: z.infer<typeof itemRow> & { client_name: string | null }): HomeItem => ({
  id: row.id,
  status: row.status,
  client: { id: row.client_id, name: row.client_name, email: row.client_email },
  template: { id: row.template_id, name: row.template_name },
  due_at: row.due_at?.toISOString() ?? null,
  updated_at: row.updated_at.toISOString(),
  assigned_to: row.assigned_to,
  assignee_name: row.assignee_name,
  assigned_to_me: row.mine,
  answers_awaiting_review: row.answers,
});

const figuresRow = z.object({
  template_id: z.string(),
  template_name: z.string(),
  sent: z.number(),
  completed: z.number(),
  median_seconds: z.number().nullable(),
});

/**
 * The month's figures per template (at most 20, most sent first): first sends counted this
 * month (onboarding_send_usage), completions this month in the team's time zone, and the
 * median time from first send to completion of those.
 */
async function monthFigures(db: ReadClient, teamId: string, month: string, zone: string) {
  const completedInMonth = `(o.status = 'completed' and to_char(o.updated_at at time zone $3, 'YYYY-MM') = $2)`;
  const rows = await parsedRows(
    db,
    figuresRow,
    `select o.template_id, max(o.template_name) as template_name,
            count(*) filter (where u.usage_month = $2)::int as sent,
            count(*) filter (where ${completedInMonth})::int as completed,
            (percentile_cont(0.5) within group (order by extract(epoch from o.updated_at - u.counted_at))
               filter (where ${completedInMonth} and u.counted_at is not null))::float8 as median_seconds
       from onboardings o
       left join onboarding_send_usage u on u.onboarding_id = o.id and u.team_id = o.team_id
      where o.team_id = $1 and (u.usage_month = $2 or ${completedInMonth})
        -- The candidates by index: the month's counted sends, and completions within a day of the
        -- month (the condition above keeps exactly the month in the team's zone). As an array, the
        -- planner probes each candidate by its key; as a subquery it joined every onboarding of the
        -- team with every send of the team first (bench part 12: 110 ms against 28).
        and o.id = any(array(
          select onboarding_id from onboarding_send_usage where team_id = $1 and usage_month = $2
          union
          select id from onboardings
           where team_id = $1 and status = 'completed'
             and updated_at >= (($2 || '-01')::timestamp at time zone $3) - interval '1 day'
             and updated_at < ((($2 || '-01')::timestamp + interval '1 month') at time zone $3) + interval '1 day'))
      group by o.template_id
      order by sent desc, completed desc, template_name
      limit 20`,
    [teamId, month, zone],
  );
  return rows.map((row): TemplateFigures => ({
    template: { id: row.template_id, name: row.template_name },
    sent: row.sent,
    completed: row.completed,
    median_seconds_to_complete: row.median_seconds === null ? null : Math.round(row.median_seconds),
  }));
}

/** Everything Home shows the signed-in member of a team. */
export async function readHome(
  db: ReadClient,
  vault: ClientOpener,
  who: { teamId: string; memberId: string },
  now: Date,
): Promise<HomeAnswer> {
  const team = await teamById(db, who.teamId);
  if (!team || !isPlan(team.plan))
    throw new Error(`Team ${who.teamId} of a signed-in member has no read model row`);
  const zone = knownZone(team.timezone);
  const month = usageMonth(now, zone);
  const [sections, usage, templates, templateCount, clientCount] = await Promise.all([
    Promise.all(HOME_SECTIONS.map((section) => sectionRows(db, section, who.teamId, who.memberId, now))),
    teamUsage(db, { ...team, plan: team.plan }, now),
    monthFigures(db, who.teamId, month, zone),
    countOf(db, 'select count(*)::int as count from templates where team_id = $1 and deleted_at is null', [
      who.teamId,
    ]),
    countOf(
      db,
      'select count(*)::int as count from clients where team_id = $1 and not client_is_erased(erased_at, email)',
      [who.teamId],
    ),
  ]);
  // Client names and emails are sealed at rest (shared/privacy/sealed-columns.ts): opened at once.
  const opened = await openTextColumns(vault, sections.flat(), ['client_name', 'client_email']);
  let at = 0;
  const answer = Object.fromEntries(
    HOME_SECTIONS.map((section, index) => {
      const rows = opened.slice(at, (at += sections[index]!.length));
      return [section, { total: sections[index]![0]?.total ?? 0, items: rows.map(toItem) }];
    }),
  ) as HomeAnswer['sections'];
  return {
    sections: answer,
    usage,
    templates,
    counts: { templates: templateCount, clients: clientCount },
  };
}
