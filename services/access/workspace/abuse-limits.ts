import { ApiError } from '../../../shared/http/api-error.ts';
import { RateLimiter } from '../../../shared/rate-limit/rate-limiter.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * The limits of the self-serve product (docs/decisions/0006-self-serve-abuse-limits.md):
 * how many sign-ups, invitations, password resets and account mails one IP address, one
 * team and one email address may cause in a fixed window of the rate-limit store. A limit
 * per address counts every request for that address, whether or not an account has it, so
 * its refusal says nothing about the account.
 */
export const ABUSE_LIMITS = {
  sign_up_ip: { limit: 5, windowSeconds: HOUR, what: 'sign-ups from your network' },
  sign_up_address: { limit: 3, windowSeconds: HOUR, what: 'sign-ups with this email address' },
  reset_ip: { limit: 20, windowSeconds: HOUR, what: 'password reset requests from your network' },
  reset_address: { limit: 3, windowSeconds: HOUR, what: 'password reset requests for this email address' },
  invitation_team: { limit: 20, windowSeconds: DAY, what: 'invitations from your team today' },
  invitation_address: { limit: 3, windowSeconds: DAY, what: 'invitations to this email address today' },
  invitation_ip: { limit: 50, windowSeconds: DAY, what: 'invitations from your network today' },
  invite_mail_team: { limit: 50, windowSeconds: DAY, what: 'invitation emails from your team today' },
  verification_member: { limit: 5, windowSeconds: HOUR, what: 'verification emails for your account' },
  verification_ip: { limit: 20, windowSeconds: HOUR, what: 'verification emails from your network' },
} as const;

export type AbuseLimitName = keyof typeof ABUSE_LIMITS;

/** The 429 of a reached limit: Retry-After and a plain message. */
export function limitReached(name: AbuseLimitName, retryAfterSeconds: number): ApiError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const wait =
    minutes >= 90 ? `${Math.ceil(minutes / 60)} hours` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return new ApiError(429, `Too many ${ABUSE_LIMITS[name].what}. Try again in ${wait}.`, {
    code: 'rate_limited',
    shape: 'full',
    retryable: true,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

/**
 * Reserves one unit of each named limit before the work it guards (an atomic increment in
 * the shared store: Redis with REDIS_URL, so a burst across instances counts once), and
 * throws the 429 of the first one used up. Every limit named is counted, refused or not,
 * so a request never learns which of several it would have passed. RATE_LIMITS=off turns
 * them off (local development and tests that are not about limits).
 */
export class AbuseLimits {
  private readonly limiters = new Map<number, RateLimiter>();

  constructor(private readonly context: Pick<WorkspaceDeps, 'rateLimitStores' | 'clock' | 'settings'>) {}

  private limiter(windowSeconds: number): RateLimiter {
    let limiter = this.limiters.get(windowSeconds);
    if (!limiter) {
      const store = this.context.rateLimitStores.store(`abuse_${windowSeconds}`, windowSeconds);
      limiter = new RateLimiter(store, this.context.clock, windowSeconds);
      this.limiters.set(windowSeconds, limiter);
    }
    return limiter;
  }

  async reserve(checks: ReadonlyArray<readonly [AbuseLimitName, string]>): Promise<void> {
    if (!this.context.settings.RATE_LIMITS) return;
    const decisions = await Promise.all(
      checks.map(async ([name, subject]) => {
        const { limit, windowSeconds } = ABUSE_LIMITS[name];
        return { name, decision: await this.limiter(windowSeconds).consume(`${name}:${subject}`, limit) };
      }),
    );
    const refused = decisions.find(({ decision }) => !decision.allowed);
    if (refused) throw limitReached(refused.name, refused.decision.retryAfterSeconds);
  }
}

const limitsByContext = new WeakMap<object, AbuseLimits>();

/** The one AbuseLimits of a service context (every route file of the workspace shares it). */
export function abuseLimits(context: Pick<WorkspaceDeps, 'rateLimitStores' | 'clock' | 'settings'>) {
  let limits = limitsByContext.get(context);
  if (!limits) {
    limits = new AbuseLimits(context);
    limitsByContext.set(context, limits);
  }
  return limits;
}

/**
 * Answers no sooner than `floorMs` after `startedMs` (performance.now()): the paths of an
 * existing and an unknown address do different work, and the floor (well above either)
 * makes both take the same time.
 */
export async function answerNoSoonerThan(startedMs: number, floorMs: number): Promise<void> {
  const wait = floorMs - (performance.now() - startedMs);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
