import { randomUUID } from 'node:crypto';
import { DomainError } from '../../shared/commands/decider.ts';
import { handleCommand, type CommandMetadata } from '../../shared/commands/handle-command.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { operatorApiError } from '../../shared/http/operator-commands.ts';
import type { Platform } from '../../shared/app-deps.ts';
import {
  deliveryLogDecider,
  deliveryLogStream,
  type DeliveryLogCommand,
  type DeliveryTargetKind,
} from './delivery-log-decider.ts';
import { isoMicros } from './event-moment.ts';
import { signedDeliveryErrors } from './signed-delivery-errors.ts';
import { TEST_EVENT_TYPE } from './contract/webhook-event-types.ts';
import type { Delivery, DeliveryAttempt } from './contract/deliveries.ts';

/**
 * The delivery log of one target (a hook subscription or a signed webhook endpoint), as
 * operations on one team that the operator API and the workspace share:
 *
 * - `listDeliveries`: newest first, a page at a time (`cursor`), each with its attempts
 *   (time, status code or error, duration, when the next attempt is due).
 * - `sendTestDelivery`: queues a delivery of type `webhook.test`, signed like any other.
 * - `replayDelivery`, `replayFailedSince`: queue delivered or failed deliveries again with
 *   their own webhook-id and body (a fresh retry schedule, a new round in the log; each
 *   attempt is signed at its own time). A delivery already queued is left as it is, so a
 *   replay asked twice at once sends once: the command is built under the target's stream
 *   lock from what the queue holds then.
 *
 * Another team's target, or an unknown or deleted one, is "not found".
 */

export type DeliveryLogDeps = Pick<Platform, 'pool' | 'eventStore' | 'clock'>;

export interface DeliveryTarget {
  kind: DeliveryTargetKind;
  id: string;
  teamId: string;
  url: string;
}

export const DELIVERY_PAGE_SIZE = 20;
export const MAX_DELIVERY_PAGE_SIZE = 100;
/** At most this many failed deliveries are queued again by one replay-failed request (ask again for more). */
export const MAX_REPLAYED_AT_ONCE = 1000;

const notFound = (kind: DeliveryTargetKind) =>
  operatorApiError(
    kind === 'hook'
      ? new DomainError('subscription_not_found', 'Subscription not found')
      : new DomainError('webhook_endpoint_not_found', 'Webhook endpoint not found'),
    signedDeliveryErrors,
  );

/** The team's target; `live`: not deleted (tests and replays send; a deleted one's log can still be read). */
export async function findTarget(
  context: Pick<Platform, 'pool'>,
  teamId: string,
  kind: DeliveryTargetKind,
  id: string,
  { live }: { live: boolean },
): Promise<DeliveryTarget> {
  const sql =
    kind === 'hook'
      ? `select target_url as url, active as live from hook_subscriptions where id = $1 and team_id = $2`
      : `select url, deleted_at is null as live from webhook_endpoints where id = $1 and team_id = $2`;
  const { rows } = await context.pool.query<{ url: string; live: boolean }>(sql, [id, teamId]);
  const row = rows[0];
  if (!row || (live && !row.live)) throw notFound(kind);
  return { kind, id, teamId, url: row.url };
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A page cursor: the last delivery shown (created_at and id, the order of the list). */
const encodeCursor = (row: { created_at: Date; id: string }) =>
  Buffer.from(JSON.stringify([row.created_at.toISOString(), row.id])).toString('base64url');

function decodeCursor(cursor: string): [string, string] {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return [at, id];
  } catch {
    // An unreadable cursor is answered below.
  }
  throw operatorApiError(
    new DomainError('invalid_body', 'Invalid request body', {
      issues: [{ path: 'cursor', message: 'cursor must be a next_cursor of this list' }],
    }),
    signedDeliveryErrors,
  );
}

export async function listDeliveries(
  context: Pick<Platform, 'pool'>,
  target: DeliveryTarget,
  { limit = DELIVERY_PAGE_SIZE, cursor }: { limit?: number; cursor?: string } = {},
): Promise<{ deliveries: Delivery[]; next_cursor: string | null }> {
  const after = cursor ? decodeCursor(cursor) : null;
  const { rows } = await context.pool.query<{
    id: string;
    event_id: string;
    event_type: string;
    state: string;
    created_at: Date;
    delivered_at: Date | null;
    next_attempt_at: Date | null;
    last_status_code: number | null;
    last_error: string | null;
    log: DeliveryAttempt[] | null;
  }>(
    `select d.id, d.event_id, d.event_type, d.state, d.created_at, d.delivered_at, d.next_attempt_at,
            d.last_status_code, d.last_error,
            (select json_agg(json_build_object(
                      'round', a.round, 'attempt', a.attempt, 'attempted_at', a.attempted_at,
                      'status_code', a.status_code, 'error', a.error, 'duration_ms', a.duration_ms,
                      'next_attempt_at', a.next_attempt_at)
                    order by a.round, a.attempt)
             from hook_delivery_attempts a where a.delivery_id = d.id) as log
     from hook_deliveries d
     where d.subscription_id = $1 and d.team_id = $2 and d.target_kind = $3
       and ($4::timestamptz is null or (d.created_at, d.id) < ($4::timestamptz, $5::uuid))
     order by d.created_at desc, d.id desc
     limit $6`,
    [target.id, target.teamId, target.kind, after?.[0] ?? null, after?.[1] ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return {
    deliveries: page.map((row) => ({
      id: row.id,
      event_id: row.event_id,
      event_type: row.event_type,
      state: row.state as Delivery['state'],
      created_at: row.created_at.toISOString(),
      delivered_at: iso(row.delivered_at),
      next_attempt_at: iso(row.next_attempt_at),
      last_status_code: row.last_status_code,
      last_error: row.last_error,
      attempts: (row.log ?? []).map((attempt) => ({
        ...attempt,
        attempted_at: iso(attempt.attempted_at)!,
        next_attempt_at: iso(attempt.next_attempt_at),
      })),
    })),
    next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}

async function run(
  context: DeliveryLogDeps,
  target: DeliveryTarget,
  command: (tx: PoolClient) => Promise<DeliveryLogCommand>,
  metadata: CommandMetadata,
  writeRows: (tx: PoolClient, command: DeliveryLogCommand) => Promise<void>,
): Promise<void> {
  try {
    await handleCommand(context, {
      streamId: deliveryLogStream(target.id),
      decider: deliveryLogDecider,
      command: (_state, tx) => command(tx),
      metadata,
      writeRows: (_decided, tx, built) => writeRows(tx, built),
    });
  } catch (error) {
    throw operatorApiError(error, signedDeliveryErrors);
  }
}

const targetData = (target: DeliveryTarget) => ({
  target_kind: target.kind,
  target_id: target.id,
  team_id: target.teamId,
});

/** Queues a `webhook.test` delivery to the target; resolves to its id (the webhook-id it is sent with). */
export async function sendTestDelivery(
  context: DeliveryLogDeps,
  target: DeliveryTarget,
  metadata: CommandMetadata,
): Promise<{ delivery_id: string; event_type: string }> {
  const now = context.clock.now();
  const deliveryId = randomUUID();
  const eventId = randomUUID();
  const body = JSON.stringify({
    id: eventId,
    event: TEST_EVENT_TYPE,
    timestamp: isoMicros(now),
    data: {
      team_id: target.teamId,
      [target.kind === 'hook' ? 'subscription_id' : 'endpoint_id']: target.id,
      message: 'A test delivery: it is signed like every delivery and stands for no event.',
    },
  });
  await run(
    context,
    target,
    async () => ({
      type: 'RequestTestDelivery',
      data: { ...targetData(target), delivery_id: deliveryId },
      metadata: { now },
    }),
    metadata,
    async (tx) => {
      await tx.query(
        `insert into hook_deliveries
           (id, subscription_id, team_id, event_id, event_type, target_url, body, state,
            next_attempt_at, created_at, updated_at, target_kind)
         values ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8, $8, $9)`,
        [deliveryId, target.id, target.teamId, eventId, TEST_EVENT_TYPE, target.url, body, now, target.kind],
      );
    },
  );
  return { delivery_id: deliveryId, event_type: TEST_EVENT_TYPE };
}

/** Queues one delivery again; `replayed` is empty when it is queued already (pending or retrying). */
export async function replayDelivery(
  context: DeliveryLogDeps,
  target: DeliveryTarget,
  deliveryId: string,
  metadata: CommandMetadata,
): Promise<{ replayed: string[] }> {
  const { rows } = await context.pool.query(
    `select 1 from hook_deliveries where id = $1 and subscription_id = $2 and team_id = $3 and target_kind = $4`,
    [deliveryId, target.id, target.teamId, target.kind],
  );
  if (rows.length === 0) {
    throw operatorApiError(new DomainError('delivery_not_found', 'Delivery not found'), signedDeliveryErrors);
  }
  return replay(context, target, metadata, (tx) =>
    replayable(tx, target, `d.id = $4 and d.state in ('delivered', 'failed')`, [deliveryId]),
  );
}

/** Queues again every delivery of the target that failed (its last attempt) at or after `since`. */
export function replayFailedSince(
  context: DeliveryLogDeps,
  target: DeliveryTarget,
  since: Date,
  metadata: CommandMetadata,
): Promise<{ replayed: string[] }> {
  return replay(context, target, metadata, (tx) =>
    replayable(tx, target, `d.state = 'failed' and d.updated_at >= $4`, [since]),
  );
}

async function replayable(
  tx: PoolClient,
  target: DeliveryTarget,
  condition: string,
  params: unknown[],
): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    `select d.id from hook_deliveries d
     where d.subscription_id = $1 and d.team_id = $2 and d.target_kind = $3 and ${condition}
     order by d.created_at, d.id limit ${MAX_REPLAYED_AT_ONCE}`,
    [target.id, target.teamId, target.kind, ...params],
  );
  return rows.map((row) => row.id);
}

async function replay(
  context: DeliveryLogDeps,
  target: DeliveryTarget,
  metadata: CommandMetadata,
  select: (tx: PoolClient) => Promise<string[]>,
): Promise<{ replayed: string[] }> {
  const now = context.clock.now();
  let replayed: string[] = [];
  await run(
    context,
    target,
    async (tx) => {
      replayed = await select(tx);
      return {
        type: 'ReplayDeliveries',
        data: { ...targetData(target), delivery_ids: replayed },
        metadata: { now },
      };
    },
    metadata,
    async (tx) => {
      // Only rows still delivered or failed: a pass may not hold them (it leases only queued rows).
      await tx.query(
        `update hook_deliveries
         set state = 'pending', attempts = 0, round = round + 1, next_attempt_at = $2, leased_until = null,
             delivered_at = null, updated_at = $2
         where id = any($1::uuid[]) and state in ('delivered', 'failed')`,
        [replayed, now],
      );
    },
  );
  return { replayed };
}
