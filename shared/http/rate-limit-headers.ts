import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The quota of one rate-limit policy as a request left it: `count` requests of `limit`
 * used in a window of `windowSeconds` that ends in `resetSeconds`.
 */
export interface RateLimitQuota {
  policy: string;
  limit: number;
  windowSeconds: number;
  count: number;
  resetSeconds: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The quotas counted for this request, in the order they were checked. */
    rateLimitQuotas?: RateLimitQuota[];
  }
}

/** Policy names of the public API's limits (client-onboarding-api.md, Limits). */
export const PER_IP_POLICY = 'per-ip';
export const PER_KEY_POLICY = 'per-key';
export const PER_KEY_AND_IP_POLICY = 'per-key-and-ip';

const quoted = (name: string) => `"${name.replace(/["\\]/g, '')}"`;

/**
 * `RateLimit-Policy` of the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-09,
 * Structured Fields): one list item per policy, its quota `q` and window `w` in seconds.
 */
export function rateLimitPolicyHeader(quotas: readonly RateLimitQuota[]): string {
  return quotas
    .map((quota) => `${quoted(quota.policy)};q=${quota.limit};w=${quota.windowSeconds}`)
    .join(', ');
}

/** `RateLimit` of the same draft: per policy, the remaining requests `r` and seconds to reset `t`. */
export function rateLimitHeader(quotas: readonly RateLimitQuota[]): string {
  return quotas
    .map(
      (quota) =>
        `${quoted(quota.policy)};r=${Math.max(0, quota.limit - quota.count)};t=${quota.resetSeconds}`,
    )
    .join(', ');
}

/** Records a counted quota on the request; the onSend hook of `rateLimitHeaders` writes it out. */
export function recordQuota(request: FastifyRequest, quota: RateLimitQuota): void {
  (request.rateLimitQuotas ??= []).push(quota);
}

function writeHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const quotas = request.rateLimitQuotas;
  if (!quotas || quotas.length === 0) return;
  reply.header('RateLimit-Policy', rateLimitPolicyHeader(quotas));
  reply.header('RateLimit', rateLimitHeader(quotas));
}

/**
 * Every answer of the routes of `app` (a 429 and other errors included) names the
 * rate-limit policies the request was counted against and what is left of each. No
 * Fastify plugin emits the draft's current form, hence this one hook; the limiter itself
 * (shared/rate-limit) stays unaware of HTTP.
 */
export function rateLimitHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => writeHeaders(request, reply));
}
