/**
 * Fair claiming of outbound work (hook deliveries, automation runs). An endpoint is a
 * team's target host (columns derived from the target URL, infra/migrations/081).
 *
 * One claim leases at most `limit` due rows, chosen so that:
 *
 * - at most `perEndpoint` rows of one endpoint are in flight (rows leased by any process,
 *   counted from the database; two processes claiming at the same moment may each fill
 *   the cap once), so a dead host holds a few lanes, never all of them;
 * - teams take turns: each team's due rows are ranked, its endpoints interleaved (the
 *   oldest of every endpoint first, then the second oldest, ...), and a team's rows in
 *   flight count as turns already taken; the claim takes the lowest turns first, the
 *   oldest due time breaking ties. A team with a backlog and a team with one new row both
 *   get their first row in the same claim.
 *
 * Rows are locked `for update skip locked` and their due conditions checked again on the
 * locked row, as before.
 */

export interface FairClaimShape {
  table: string;
  /** The endpoint column; rows where it is null have no per-endpoint cap (not outbound HTTP). */
  endpoint: string;
  /** When the row was queued: the second age order after next_attempt_at. */
  queuedAt: string;
  /** Conditions of a due row, its columns written \`$row.column\` ($1: the service clock's now). */
  due: string;
  /** A further condition, its columns written \`$row.column\` (an endpoint resting). */
  claimable?: string;
  lease: string;
  returning: string;
}

/** SQL of one claim; parameters: $1 now (service clock), $2 limit, $3 the cap per endpoint. */
export function fairClaimSql(shape: FairClaimShape): string {
  const { table, endpoint, queuedAt } = shape;
  const on = (alias: string, condition: string) => condition.replaceAll('$row.', `${alias}.`);
  return `
    with in_flight as (
      select team_id, ${endpoint} as endpoint, count(*)::int as busy
      from ${table}
      where leased_until is not null and leased_until >= now()
      group by team_id, ${endpoint}
    ),
    team_in_flight as (
      select team_id, sum(busy)::int as busy from in_flight group by team_id
    ),
    due as (
      select d.id, d.team_id, d.${endpoint} as endpoint, d.next_attempt_at,
             row_number() over (
               partition by d.team_id, d.${endpoint} order by d.next_attempt_at, d.${queuedAt}
             ) as endpoint_turn
      from ${table} d
      where ${on('d', shape.due)}
        and (d.leased_until is null or d.leased_until < now())
        ${shape.claimable ? `and ${on('d', shape.claimable)}` : ''}
    ),
    under_cap as (
      select due.*
      from due left join in_flight f
        on f.team_id = due.team_id and f.endpoint is not distinct from due.endpoint
      where due.endpoint is null or due.endpoint_turn + coalesce(f.busy, 0) <= $3
    ),
    turns as (
      select under_cap.id, under_cap.next_attempt_at,
             coalesce(t.busy, 0) + row_number() over (
               partition by under_cap.team_id
               order by under_cap.endpoint_turn, under_cap.next_attempt_at, under_cap.id
             ) as team_turn
      from under_cap left join team_in_flight t on t.team_id = under_cap.team_id
    )
    update ${table} set leased_until = now() + ${shape.lease}
    where id in (
      select claim.id from ${table} claim join turns on turns.id = claim.id
      where ${on('claim', shape.due)}
        and (claim.leased_until is null or claim.leased_until < now())
      order by turns.team_turn, turns.next_attempt_at, claim.id
      limit $2
      for update of claim skip locked)
    returning ${shape.returning}`;
}
