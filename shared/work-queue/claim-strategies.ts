import { onRow, unleased, type ClaimStrategy, type QueueShape } from './work-queue.ts';

/**
 * How a claim picks among the due rows of a queue (./work-queue.ts). Each strategy's SQL
 * takes $1 the service clock's now, $2 the most rows, then its own parameters, and keeps
 * the queue's rules: due rows only, locked `for update skip locked`, their due condition
 * checked again on the locked row, leased in the same statement (or, without a lease,
 * left locked for the caller's transaction).
 */

/** The due rows in the order of `orderBy` (columns written `$row.column`); no parameters of its own. */
export function oldestFirst(orderBy: string): ClaimStrategy {
  return {
    params: [],
    sql(queue: QueueShape) {
      const { table, lease, returning } = queue;
      if (lease === null) {
        return `select ${returning} from ${table} q
          where ${onRow(queue.due, 'q')}
          order by ${onRow(orderBy, 'q')}
          limit $2
          for update skip locked`;
      }
      return `update ${table} set leased_until = now() + interval '${lease}'
        where id in (
          select q.id from ${table} q
          where ${onRow(queue.due, 'q')} and ${unleased('q')}
          order by ${onRow(orderBy, 'q')}
          limit $2
          for update skip locked)
        returning ${returning}`;
    },
  };
}

export interface FairShape {
  /** The endpoint column (a team's target host); rows where it is null have no cap (not outbound HTTP). */
  endpoint: string;
  /** When the row was queued: the second age order after next_attempt_at. */
  queuedAt: string;
  /** At most this many rows of one endpoint in flight (leased by any process). */
  perEndpoint: number;
  /** A further condition, its columns written `$row.column` (an endpoint resting). */
  claimable?: string;
}

/**
 * Fair claiming of outbound work by team (column team_id) and endpoint. One claim leases
 * at most $2 due rows, chosen so that:
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
 * Its parameter $3 is `perEndpoint`. The queue needs a lease and column next_attempt_at.
 */
export function fairByTeamAndEndpoint(shape: FairShape): ClaimStrategy {
  return {
    params: [shape.perEndpoint],
    sql(queue: QueueShape) {
      const { table, lease, returning } = queue;
      const { endpoint, queuedAt } = shape;
      if (lease === null) throw new Error(`fair claims lease their rows: ${table} has no lease`);
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
          where ${onRow(queue.due, 'd')}
            and ${unleased('d')}
            ${shape.claimable ? `and ${onRow(shape.claimable, 'd')}` : ''}
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
        update ${table} set leased_until = now() + interval '${lease}'
        where id in (
          select claim.id from ${table} claim join turns on turns.id = claim.id
          where ${onRow(queue.due, 'claim')}
            and ${unleased('claim')}
          order by turns.team_turn, turns.next_attempt_at, claim.id
          limit $2
          for update of claim skip locked)
        returning ${returning}`;
    },
  };
}
