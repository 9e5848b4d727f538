import type { ReadClient } from '../../../projections/read-client.ts';

/**
 * The Idempotency-Keys of the workspace's key requests (operational table
 * workspace_key_requests): which key a create or rotate with a given Idempotency-Key made.
 * The row commits with the key's events, so a repeat answers the same key.
 */

/** The key an earlier request with this Idempotency-Key made; undefined when there was none. */
export async function requestedKeyId(
  db: ReadClient,
  teamId: string,
  action: string,
  idempotencyKey: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ api_key_id: string }>(
    'select api_key_id from workspace_key_requests where team_id = $1 and action = $2 and idempotency_key = $3',
    [teamId, action, idempotencyKey],
  );
  return rows[0]?.api_key_id;
}

/** Records the request in the key's transaction (a repeat that raced in fails with 23505). */
export async function recordKeyRequest(
  tx: ReadClient,
  request: { teamId: string; action: string; idempotencyKey: string; apiKeyId: string; now: Date },
): Promise<void> {
  await tx.query(
    `insert into workspace_key_requests (team_id, action, idempotency_key, api_key_id, created_at)
     values ($1, $2, $3, $4, $5)`,
    [request.teamId, request.action, request.idempotencyKey, request.apiKeyId, request.now],
  );
}
