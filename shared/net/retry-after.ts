/**
 * Retry-After (RFC 9110, 10.2.3) as outbound requests read it: hook deliveries and Send
 * webhook actions honour a wait of at most 1 hour (client-onboarding-api.md, Run rules 6).
 */
export const MAX_RETRY_AFTER_SECONDS = 60 * 60;

/**
 * Seconds a Retry-After header asks for (delta-seconds or an HTTP date, against `now`);
 * undefined when absent or unreadable.
 */
export function retryAfterSeconds(header: string | string[] | undefined, now: Date): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
