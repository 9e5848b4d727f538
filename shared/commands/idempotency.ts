import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { EventStore } from '../event-store/event-store.ts';
import type { Clock } from '../clock.ts';
import type { Pool, PoolClient } from '../db/pool.ts';
import { codedError } from '../http/api-error.ts';
import { inCommandTransaction } from './handle-command.ts';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency-retention.ts';

/**
 * Idempotency-Key of the onboarding commands (client-onboarding-api.md, Idempotent
 * retries), kept in `idempotency_records` inside the command's own transaction:
 *
 * - a value is 1 to 128 visible ASCII characters (0x21-0x7E), else 400 invalid_idempotency_key;
 * - a value belongs to one API key and one operation (create, update, send) and covers
 *   every onboarding id of that operation;
 * - the first request inserts the row and runs the command in the same transaction; a
 *   concurrent request with the same value blocks on that row (unique key) until the
 *   first commits, then replays its answer (or, when the first rolled back, runs itself);
 * - same value, same body (and same onboarding id) within 24 hours by the service clock:
 *   the original status and body, without running again; a different body or onboarding:
 *   409 external_command_conflict; after 24 hours the value runs as a new command;
 * - answers of commands that ran are kept, refusals (4xx) included; a 5xx rolls the
 *   transaction back, so nothing is kept and a retry runs again.
 *
 * The kept answer is encrypted (AES-256-GCM) with a key derived (HKDF) from the API key's
 * secret and the value: the create answer holds the client token, which is stored nowhere
 * else in the clear.
 */

export { IDEMPOTENCY_RETENTION_MS };
const KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;

export type IdempotentOperation = 'create' | 'update' | 'send';

export interface IdempotencyRequest {
  apiKeyId: string;
  /** The API key's secret (from the Authorization header): the encryption key's source. */
  apiKeySecret: string;
  operation: IdempotentOperation;
  key: string;
  onboardingId: string | null;
  body: unknown;
}

export interface CommandAnswer {
  status: number;
  body: unknown;
  /** Log position to wait for before answering (read your writes). */
  position?: bigint;
}

export const invalidIdempotencyKey = () =>
  codedError(
    400,
    'invalid_idempotency_key',
    'Idempotency-Key must be 1 to 128 visible ASCII characters without spaces',
  );

export const externalCommandConflict = () =>
  codedError(
    409,
    'external_command_conflict',
    'This Idempotency-Key was already used with a different request',
  );

/** The header's value; undefined without the header; 400 invalid_idempotency_key when malformed. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) throw invalidIdempotencyKey();
  return header;
}

/** JSON with object keys sorted, so key order does not change the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const fingerprintText = (request: IdempotencyRequest) =>
  canonicalJson({
    operation: request.operation,
    onboarding_id: request.onboardingId,
    body: request.body ?? {},
  });

/**
 * The request's fingerprint: an HMAC-SHA256 of its operation, onboarding and body under a key
 * derived from the API key's secret (stored nowhere), so a stored fingerprint cannot be tested
 * against a guessed body holding a client's personal data (docs/decisions/0016).
 */
export const fingerprintOf = (request: IdempotencyRequest) =>
  createHmac(
    'sha256',
    Buffer.from(hkdfSync('sha256', request.apiKeySecret, 'idempotency fingerprint', 'v2', 32)),
  )
    .update(fingerprintText(request))
    .digest('hex');

/** Whether a stored fingerprint is this request's (also one kept as a plain sha256 before v2). */
export const fingerprintMatches = (stored: string, request: IdempotencyRequest) =>
  stored === fingerprintOf(request) ||
  stored === createHash('sha256').update(fingerprintText(request)).digest('hex');

function cipherKey(request: IdempotencyRequest): Buffer {
  return Buffer.from(
    hkdfSync(
      'sha256',
      request.apiKeySecret,
      `${request.operation}:${request.key}`,
      'onboarding idempotency answer v1',
      32,
    ),
  );
}

/** Encrypted (AES-256-GCM) under the request's key: only the holder of the API key's secret reads it. */
export function sealFor(request: IdempotencyRequest, value: unknown): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(request), iv);
  const plain = Buffer.from(JSON.stringify(value), 'utf8');
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

export function openFor<T>(request: IdempotencyRequest, sealed: Buffer): T {
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(request), sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  const plain = Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as T;
}

interface RecordRow {
  fingerprint: string;
  status: number | null;
  response: Buffer | null;
  position: string | null;
  created_at: Date;
}

/**
 * Runs `run` once per idempotency key (or every time without one) in one transaction
 * with the record. `run` returns the answer; a 4xx answer is kept like a success.
 */
export async function runIdempotent(
  deps: { pool: Pool; eventStore: EventStore; clock: Clock },
  request: IdempotencyRequest | undefined,
  run: (tx: PoolClient) => Promise<CommandAnswer>,
): Promise<CommandAnswer & { replayed: boolean }> {
  return inCommandTransaction(deps, async (tx) => {
    if (!request) return { ...(await run(tx)), replayed: false };
    const now = deps.clock.now();
    const fingerprint = fingerprintOf(request);
    const id = [request.apiKeyId, request.operation, request.key];
    const inserted = await tx.query(
      `insert into idempotency_records (api_key_id, operation, key, fingerprint, onboarding_id, created_at)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (api_key_id, operation, key) do nothing`,
      [...id, fingerprint, request.onboardingId, now],
    );
    if (inserted.rowCount === 0) {
      // Committed by an earlier request (a concurrent one has just finished: the insert waited for it).
      const { rows } = await tx.query<RecordRow>(
        `select fingerprint, status, response, position, created_at from idempotency_records
         where api_key_id = $1 and operation = $2 and key = $3 for update`,
        id,
      );
      const existing = rows[0];
      const fresh = existing && now.getTime() - existing.created_at.getTime() < IDEMPOTENCY_RETENTION_MS;
      if (existing && fresh) {
        if (!fingerprintMatches(existing.fingerprint, request)) throw externalCommandConflict();
        if (existing.status !== null && existing.response !== null) {
          const answer = openFor<{ status: number; body: unknown }>(request, existing.response);
          const position = existing.position === null ? undefined : BigInt(existing.position);
          return { ...answer, position, replayed: true };
        }
      }
      // Older than 24 hours (or never completed): the value runs as a new command.
      await tx.query(
        `update idempotency_records
         set fingerprint = $4, onboarding_id = $5, created_at = $6, status = null, response = null, position = null
         where api_key_id = $1 and operation = $2 and key = $3`,
        [...id, fingerprint, request.onboardingId, now],
      );
    }
    const answer = await run(tx);
    await tx.query(
      `update idempotency_records set status = $4, response = $5, position = $6
       where api_key_id = $1 and operation = $2 and key = $3`,
      [
        ...id,
        answer.status,
        sealFor(request, { status: answer.status, body: answer.body }),
        answer.position === undefined ? null : String(answer.position),
      ],
    );
    return { ...answer, replayed: false };
  });
}
