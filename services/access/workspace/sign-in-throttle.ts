import type { Clock } from '../../../shared/clock.ts';
import {
  MemoryRateLimitStore,
  RateLimiter,
  type RateLimitStore,
} from '../../../shared/rate-limit/rate-limiter.ts';

/**
 * Wrong passwords slow down, then lock (counted by email, so an unknown address behaves
 * like a known one, and by IP), in fixed 15-minute windows of the rate-limit store:
 * - from the 5th failure of an email in a window, an attempt waits for the next 30-second
 *   window after the last failure (429 code sign_in_slowed_down with Retry-After);
 * - the 10th failure locks the email for 15 minutes from then, even for the right password
 *   (429 code sign_in_locked; the lock is a row of sign_in_locks written by the caller);
 * - 50 failures from one IP in a window refuse that IP until the window ends
 *   (429 code sign_in_rate_limited).
 * The stores are the shared rate-limit port (shared/rate-limit/): in Redis when REDIS_URL
 * is set, so every instance counts the same failures.
 */
export const FAILURE_WINDOW_SECONDS = 15 * 60;
export const SLOW_DOWN_AFTER = 5;
export const SLOW_DOWN_SECONDS = 30;
export const LOCK_AFTER = 10;
export const LOCK_SECONDS = 15 * 60;
export const IP_FAILURE_LIMIT = 50;

export type ThrottleRefusal =
  | { code: 'sign_in_locked'; retryAfterSeconds: number }
  | { code: 'sign_in_slowed_down'; retryAfterSeconds: number }
  | { code: 'sign_in_rate_limited'; retryAfterSeconds: number };

/** Pure: the refusal for a locked email (minutes rounded up), or null. */
export function lockRefusal(lockedUntil: Date | null, now: Date): ThrottleRefusal | null {
  if (!lockedUntil || lockedUntil.getTime() <= now.getTime()) return null;
  return {
    code: 'sign_in_locked',
    retryAfterSeconds: Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000)),
  };
}

/** The message a person reads for each refusal. */
export function refusalMessage(refusal: ThrottleRefusal): string {
  const minutes = Math.max(1, Math.ceil(refusal.retryAfterSeconds / 60));
  const inMinutes = `${minutes} minute${minutes === 1 ? '' : 's'}`;
  switch (refusal.code) {
    case 'sign_in_locked':
      return `Too many wrong passwords: sign-in to this account is locked. Try again in ${inMinutes}, or reset your password.`;
    case 'sign_in_slowed_down':
      return `Too many wrong passwords. Wait ${refusal.retryAfterSeconds} seconds before trying again.`;
    case 'sign_in_rate_limited':
      return `Too many failed sign-ins from your network. Try again in ${inMinutes}.`;
  }
}

export class SignInThrottle {
  private readonly failures: RateLimiter;
  private readonly pace: RateLimiter;

  constructor(
    private readonly clock: Clock,
    failureStore: RateLimitStore = new MemoryRateLimitStore(),
    paceStore: RateLimitStore = new MemoryRateLimitStore(),
  ) {
    this.failures = new RateLimiter(failureStore, clock, FAILURE_WINDOW_SECONDS);
    this.pace = new RateLimiter(paceStore, clock, SLOW_DOWN_SECONDS);
  }

  /** Before the password is checked: the IP limit, then the slow-down of the email. */
  async admit(email: string, ip: string): Promise<ThrottleRefusal | null> {
    const byIp = await this.failures.current(`signin_ip:${ip}`);
    if (byIp.count >= IP_FAILURE_LIMIT) {
      return { code: 'sign_in_rate_limited', retryAfterSeconds: byIp.resetsInSeconds };
    }
    const byEmail = await this.failures.current(`signin_email:${email}`);
    if (byEmail.count >= SLOW_DOWN_AFTER) {
      const paced = await this.pace.current(`signin_pace:${email}`);
      if (paced.count > 0) return { code: 'sign_in_slowed_down', retryAfterSeconds: paced.resetsInSeconds };
    }
    return null;
  }

  /** Counts a wrong password; returns the end of a lock when this failure locks the email. */
  async fail(email: string, ip: string): Promise<Date | null> {
    await this.failures.consume(`signin_ip:${ip}`, IP_FAILURE_LIMIT);
    const { allowed } = await this.failures.consume(`signin_email:${email}`, LOCK_AFTER - 1);
    // From the 5th failure on, the 30-second window of this failure is spent: the next attempt waits for the next one.
    await this.pace.consume(`signin_pace:${email}`, 1);
    if (allowed) return null;
    return new Date(this.clock.now().getTime() + LOCK_SECONDS * 1000);
  }
}
