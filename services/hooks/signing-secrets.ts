import { randomUUID } from 'node:crypto';
import type { Db } from '../../shared/work-queue/work-queue.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import {
  handleCommand,
  type CommandMetadata,
  type PipelineDeps,
} from '../../shared/commands/handle-command.ts';
import { hookSigningDecider, hookSigningStream } from './hook-signing-decider.ts';
import { newSigningSecret, overlapEnd, type SecretPair } from './signing.ts';

/**
 * The stored signing secrets (operational tables hook_signing_secrets and
 * webhook_endpoint_secrets): written only inside the transaction of the command that makes
 * or rotates them, read by the deliveries at each attempt. Never logged, never in events.
 */

export interface StoredSecret extends SecretPair {
  rotated_at: Date | null;
}

const COLUMNS = 'secret, previous_secret, previous_until, rotated_at';

/** The metadata of a command the service makes itself (a delivery needing the team's first secret). */
export const serviceMetadata = (): CommandMetadata => ({
  command_id: randomUUID(),
  causation_id: null,
  correlation_id: null,
  api_key_id: null,
});

export async function teamSecret(db: Db, teamId: string): Promise<StoredSecret | undefined> {
  const { rows } = await db.query<StoredSecret>(
    `select ${COLUMNS} from hook_signing_secrets where team_id = $1`,
    [teamId],
  );
  return rows[0];
}

/** The team's hook signing secret, made on first need (one command; two at once make one). */
export async function ensureTeamSecret(
  context: PipelineDeps,
  teamId: string,
  now: Date,
  metadata: CommandMetadata = serviceMetadata(),
): Promise<StoredSecret> {
  const existing = await teamSecret(context.pool, teamId);
  if (existing) return existing;
  await handleCommand(context, {
    streamId: hookSigningStream(teamId),
    decider: hookSigningDecider,
    command: { type: 'EnsureHookSigningSecret', data: { team_id: teamId }, metadata: { now } },
    metadata,
    writeRows: (_decided, tx) => insertTeamSecret(tx, teamId, now),
  });
  const made = await teamSecret(context.pool, teamId);
  if (!made) throw new Error('hook signing secret missing after it was made');
  return made;
}

/** A new team secret; the previous one keeps signing for the overlap (./signing.ts). */
export async function rotateTeamSecret(
  context: PipelineDeps,
  teamId: string,
  now: Date,
  metadata: CommandMetadata,
): Promise<StoredSecret> {
  await handleCommand(context, {
    streamId: hookSigningStream(teamId),
    decider: hookSigningDecider,
    command: {
      type: 'RotateHookSigningSecret',
      data: { team_id: teamId, previous_valid_until: overlapEnd(now) },
      metadata: { now },
    },
    metadata,
    writeRows: async ({ events }, tx) => {
      if (events[0]?.type === 'hook_signing_secret.created') return insertTeamSecret(tx, teamId, now);
      await rotateRow(tx, 'hook_signing_secrets', 'team_id', teamId, now);
    },
  });
  return (await teamSecret(context.pool, teamId))!;
}

/**
 * A secret as the routes answer it: with the previous secret's end while it signs too
 * (`liveAt`: only when that end is after it; without it, whenever there is one).
 */
export const secretAnswer = (stored: StoredSecret, liveAt?: Date) => ({
  secret: stored.secret,
  previous_valid_until:
    stored.previous_until && (!liveAt || stored.previous_until > liveAt)
      ? stored.previous_until.toISOString()
      : null,
});

async function insertTeamSecret(tx: PoolClient, teamId: string, now: Date): Promise<void> {
  await tx.query(
    `insert into hook_signing_secrets (team_id, secret, created_at) values ($1, $2, $3)
     on conflict (team_id) do nothing`,
    [teamId, newSigningSecret(), now],
  );
}

export async function endpointSecret(db: Db, endpointId: string): Promise<StoredSecret | undefined> {
  const { rows } = await db.query<StoredSecret>(
    `select ${COLUMNS} from webhook_endpoint_secrets where endpoint_id = $1`,
    [endpointId],
  );
  return rows[0];
}

/** An endpoint's first secret, written by the command that creates the endpoint; returns it to show once. */
export async function insertEndpointSecret(
  tx: PoolClient,
  endpointId: string,
  teamId: string,
  now: Date,
): Promise<string> {
  const secret = newSigningSecret();
  await tx.query(
    `insert into webhook_endpoint_secrets (endpoint_id, team_id, secret, created_at) values ($1, $2, $3, $4)`,
    [endpointId, teamId, secret, now],
  );
  return secret;
}

export const rotateEndpointSecretRow = (tx: PoolClient, endpointId: string, now: Date) =>
  rotateRow(tx, 'webhook_endpoint_secrets', 'endpoint_id', endpointId, now);

/** The current secret becomes the previous one until the overlap ends; a new one signs from now. */
async function rotateRow(
  tx: PoolClient,
  table: 'hook_signing_secrets' | 'webhook_endpoint_secrets',
  key: 'team_id' | 'endpoint_id',
  id: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `update ${table} set previous_secret = secret, previous_until = $3, secret = $2, rotated_at = $4
     where ${key} = $1`,
    [id, newSigningSecret(), overlapEnd(now), now],
  );
}
