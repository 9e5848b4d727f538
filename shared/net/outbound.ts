import { MAX_RETRY_AFTER_SECONDS, retryAfterSeconds } from './retry-after.ts';
import type { SafeHttpOptions, SafeHttpOutcome } from './safe-http.ts';
import type { Platform } from '../app-deps.ts';

/**
 * What hook deliveries and Send webhook actions share: the outbound HTTP options of a
 * running service and how an answer is judged.
 */

/**
 * The parts of a running service its outbound requests use. The certificates trusted for
 * tests and the passes in progress are kept per service, by the identity of the object the
 * composition (services/app/) hands to every part.
 */
export type OutboundDeps = Pick<Platform, 'settings'>;

const extraTrust = new WeakMap<object, string[]>();

/**
 * Tests: trust these PEM certificates (a local receiver's self-signed one) for this
 * service's outbound requests. Production trusts Node's store and NODE_EXTRA_CA_CERTS.
 */
export function trustCertificatesForTests(context: OutboundDeps, pem: string | string[]): void {
  extraTrust.set(context, [pem].flat());
}

export function outboundOptions(context: OutboundDeps): SafeHttpOptions {
  return { allowlist: context.settings.HOOK_TARGET_ALLOWLIST, ca: extraTrust.get(context) };
}

/**
 * An attempt's verdict (client-onboarding-api.md, Run rules 5 and 6; hook deliveries keep
 * the same rules): any 2xx succeeds; a 4xx other than 408 and 429 stops; every other
 * answer and every failure to get one (network, TLS, time-out, a refused address or
 * redirect) is retried. `retryAfterSeconds`: a Retry-After of at most 1 hour.
 */
export type AttemptVerdict =
  | { kind: 'succeeded'; status: number | null }
  | { kind: 'stop'; reason: string; status: number | null }
  | { kind: 'retry'; reason: string; status: number | null; retryAfterSeconds?: number };

export function judge(outcome: SafeHttpOutcome, now: Date): AttemptVerdict {
  if (outcome.kind !== 'response') return { kind: 'retry', reason: outcome.reason, status: null };
  const { status } = outcome;
  if (status >= 200 && status < 300) return { kind: 'succeeded', status };
  const reason = `HTTP ${status}`;
  if (status >= 400 && status < 500 && status !== 408 && status !== 429)
    return { kind: 'stop', reason, status };
  const wait = retryAfterSeconds(outcome.headers['retry-after'], now);
  return wait !== undefined && wait <= MAX_RETRY_AFTER_SECONDS
    ? { kind: 'retry', reason, status, retryAfterSeconds: wait }
    : { kind: 'retry', reason, status };
}
