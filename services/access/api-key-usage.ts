import type { Platform } from '../../shared/app-deps.ts';

/**
 * When each API key last authenticated a request (api_key_usage, infra/migrations/153), to
 * the minute: the workspace lists it so a team sees which key is still in use after a
 * rotation. The public API's key check calls `noteKeyUse` on every request; it writes at
 * most once a minute per key and instance, and never delays or fails the request.
 */

const WRITE_EVERY_MS = 60_000;
const noted = new Map<string, number>();
/** Forget old entries beyond this many keys (one instance sees a bounded set of live keys). */
const MAX_REMEMBERED = 10_000;

export function noteKeyUse(context: Pick<Platform, 'pool' | 'clock'>, apiKeyId: string): void {
  const now = context.clock.now();
  const last = noted.get(apiKeyId);
  if (last !== undefined && now.getTime() - last < WRITE_EVERY_MS && now.getTime() >= last) return;
  if (noted.size >= MAX_REMEMBERED) noted.clear();
  noted.set(apiKeyId, now.getTime());
  void context.pool
    .query(
      `insert into api_key_usage (api_key_id, last_used_at) values ($1, $2)
       on conflict (api_key_id) do update set last_used_at = greatest(api_key_usage.last_used_at, excluded.last_used_at)`,
      [apiKeyId, now],
    )
    // The use is informative: a failed write (database busy, shutting down) is not the request's failure.
    .catch(() => noted.delete(apiKeyId));
}
