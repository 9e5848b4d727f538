import type { Clock } from '../../../shared/clock.ts';
import {
  RateLimiter,
  type RateLimitDecision,
  type RateLimitStore,
} from '../../../shared/rate-limit/rate-limiter.ts';

/**
 * Wrong passwords and two-factor codes slow down, then lock (counted by email, so an
 * unknown address behaves like a known one, and by IP), in fixed 15-minute windows of the
 * rate-limit store. Every attempt reserves its count before anything is checked and keeps
 * it when it fails (it gives it back when it signs in), so attempts sent at once are
 * counted as they arrive, and a right password inside a burst is refused (`recheck`):
 * - from the 5th failure of an email in a window, an attempt waits for the next 30-second
 *   window after the last failure (429 code sign_in_slowed_down with Retry-After);
 * - the 10th failure locks the email for 15 minutes from then, even for the right password
 *   (429 code sign_in_locked; the lock is a row of sign_in_locks written by the caller);
 * - 50 failures from one IP in a window refuse that IP until the window ends
 *   (429 code sign_in_rate_limited).
 * The stores are the shared rate-limit port (shared/rate-limit/): in Redis when REDIS_URL
 * is set, else in PostgreSQL, so every instance and every restart counts the same
 * attempts (docs/decisions/0001-attempt-limits-and-trusted-proxies.md).
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

/** The reservations of one admitted attempt, held while its password (and code) are checked. */
export interface SignInAttempt {
  readonly email: string;
  readonly ip: string;
  readonly byIp: RateLimitDecision;
  readonly byEmail: RateLimitDecision;
  /** The attempt's 30-second slot, taken from the 6th attempt on. */
  readonly paced?: RateLimitDecision;
}

export type Admission = { refusal: ThrottleRefusal } | { attempt: SignInAttempt };

export class SignInThrottle {
  private readonly failures: RateLimiter;
  private readonly pace: RateLimiter;

  /** The stores are guess limits (failClosed): see ../../../shared/rate-limit/redis-store.ts. */
  constructor(
    private readonly clock: Clock,
    failureStore: RateLimitStore,
    paceStore: RateLimitStore,
  ) {
    this.failures = new RateLimiter(failureStore, clock, FAILURE_WINDOW_SECONDS);
    this.pace = new RateLimiter(paceStore, clock, SLOW_DOWN_SECONDS);
  }

  /**
   * Before the password is checked, an attempt is reserved atomically (the counters count
   * failures and attempts in flight, each increment returns its own count), so a burst is
   * counted before any of it is checked:
   * 1. the IP: more than IP_FAILURE_LIMIT is refused (sign_in_rate_limited);
   * 2. the email: more than LOCK_AFTER is refused (sign_in_locked, until the window ends);
   * 3. from the 6th (5 failures or attempts in flight before it), one attempt per 30-second
   *    window, and none in the window of a failure (sign_in_slowed_down).
   * A refusal of 2 or 3 gives its other reservations back (no password was checked).
   */
  async admit(email: string, ip: string): Promise<Admission> {
    const ipKey = `signin_ip:${ip}`;
    const emailKey = `signin_email:${email}`;
    const byIp = await this.failures.consume(ipKey, IP_FAILURE_LIMIT);
    if (!byIp.allowed) {
      return { refusal: { code: 'sign_in_rate_limited', retryAfterSeconds: byIp.retryAfterSeconds } };
    }
    const byEmail = await this.failures.consume(emailKey, LOCK_AFTER);
    if (!byEmail.allowed) {
      await this.failures.release(ipKey, byIp);
      return { refusal: { code: 'sign_in_locked', retryAfterSeconds: byEmail.retryAfterSeconds } };
    }
    let paced: RateLimitDecision | undefined;
    if (byEmail.count > SLOW_DOWN_AFTER) {
      paced = await this.pace.consume(`signin_pace:${email}`, 1);
      if (!paced.allowed) {
        await this.failures.release(ipKey, byIp);
        await this.failures.release(emailKey, byEmail);
        return { refusal: { code: 'sign_in_slowed_down', retryAfterSeconds: paced.retryAfterSeconds } };
      }
    }
    return { attempt: { email, ip, byIp, byEmail, paced } };
  }

  /**
   * Right before a session is issued (the password and code were right): refused when the
   * email or the IP went over its limit meanwhile (a burst around the right password).
   */
  async recheck(attempt: SignInAttempt): Promise<ThrottleRefusal | null> {
    const [byEmail, byIp] = await Promise.all([
      this.failures.current(`signin_email:${attempt.email}`),
      this.failures.current(`signin_ip:${attempt.ip}`),
    ]);
    if (byEmail.count > LOCK_AFTER) {
      return { code: 'sign_in_locked', retryAfterSeconds: byEmail.resetsInSeconds };
    }
    if (byIp.count > IP_FAILURE_LIMIT) {
      return { code: 'sign_in_rate_limited', retryAfterSeconds: byIp.resetsInSeconds };
    }
    return null;
  }

  /**
   * The attempt checked no wrong secret (signed in, or asked for its code): its
   * reservations go back, its 30-second slot too (only failures slow an account down).
   */
  async release(attempt: SignInAttempt): Promise<void> {
    await this.failures.release(`signin_ip:${attempt.ip}`, attempt.byIp);
    await this.failures.release(`signin_email:${attempt.email}`, attempt.byEmail);
    if (attempt.paced) await this.pace.release(`signin_pace:${attempt.email}`, attempt.paced);
  }

  /**
   * A completed password reset: the account's failures and its 30-second slot are
   * forgotten, so the new password signs in at once (the IP's count stays).
   */
  async forgetAccount(email: string): Promise<void> {
    await this.failures.clear(`signin_email:${email}`);
    await this.pace.clear(`signin_pace:${email}`);
  }

  /** A wrong password or code: the reservations stay counted; returns the end of a lock when this one locks the email. */
  async fail(attempt: SignInAttempt): Promise<Date | null> {
    // This 30-second window is spent: from the 5th failure on, the next attempt waits for the next one.
    await this.pace.consume(`signin_pace:${attempt.email}`, 1);
    if (attempt.byEmail.count < LOCK_AFTER) return null;
    return new Date(this.clock.now().getTime() + LOCK_SECONDS * 1000);
  }
}
