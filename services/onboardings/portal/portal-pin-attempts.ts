import { RateLimiter, type RateLimitDecision } from '../../../shared/rate-limit/rate-limiter.ts';
import type { RateLimitStores } from '../../../shared/rate-limit/redis-store.ts';
import type { Clock } from '../../../shared/clock.ts';
import { portalRateLimited } from './portal-rate-limits.ts';

/**
 * The wrong-PIN lock of a portal link: at most PIN_FAILURE_LIMIT wrong PINs per link in a
 * window of PIN_FAILURE_WINDOW_SECONDS (fixed windows on the service clock), then 429
 * rate_limited until the window ends.
 *
 * The counter lives in the service's shared rate-limit store (context.rateLimitStores:
 * Redis with REDIS_URL, else PostgreSQL; a guess limit, so it fails closed while Redis
 * does not answer), never in this process, so the lock holds across instances and
 * restarts. It counts wrong PINs plus the PINs being checked right now:
 *
 * - every PIN presented reserves an attempt with one atomic increment BEFORE it is hashed;
 *   a reservation past the limit is given back and refused (429) unhashed, so however many
 *   PINs arrive at once, on however many instances, at most PIN_FAILURE_LIMIT are hashed
 *   without a right one among them;
 * - a wrong PIN keeps its reservation: it is a failure;
 * - a right PIN gives its reservation back and is accepted only if the link is still not
 *   locked (`confirm`): a right PIN in a burst of wrong ones is refused as well.
 *
 * The price: at most PIN_FAILURE_LIMIT PIN checks of one link can be in flight at once;
 * more at the same moment answer 429 (the client form checks the PIN once per visit and
 * then uses its link session).
 */
export const PIN_FAILURE_LIMIT = 10;
export const PIN_FAILURE_WINDOW_SECONDS = 15 * 60;
export const TOO_MANY_WRONG_PINS = 'Too many wrong PINs for this link; try again later';

/** The store's name (its keys' prefix) in context.rateLimitStores. */
export const PIN_ATTEMPTS_STORE = 'portal_pin_attempts';

/** A reserved attempt, to give back when its PIN was right. */
export type PinReservation = RateLimitDecision & { tokenHash: string };

export class PinAttempts {
  private readonly counters: RateLimiter;

  constructor(stores: Pick<RateLimitStores, 'store'>, clock: Clock) {
    this.counters = new RateLimiter(
      stores.store(PIN_ATTEMPTS_STORE, PIN_FAILURE_WINDOW_SECONDS, { failClosed: true }),
      clock,
      PIN_FAILURE_WINDOW_SECONDS,
    );
  }

  /** Seconds until the link takes PINs again, or null when it takes them now (counts nothing). */
  async lockedFor(tokenHash: string): Promise<number | null> {
    const { count, resetsInSeconds } = await this.counters.current(tokenHash);
    return count >= PIN_FAILURE_LIMIT ? resetsInSeconds : null;
  }

  /** Reserves one PIN check before the PIN is hashed; throws 429 rate_limited when the link is locked. */
  async reserve(tokenHash: string): Promise<PinReservation> {
    const decision = await this.counters.consume(tokenHash, PIN_FAILURE_LIMIT);
    if (!decision.allowed) {
      await this.counters.release(tokenHash, decision);
      throw portalRateLimited(TOO_MANY_WRONG_PINS, decision.retryAfterSeconds);
    }
    return { ...decision, tokenHash };
  }

  /**
   * The reserved attempt's PIN was right: gives the reservation back, then checks the lock
   * again (wrong PINs checked or in flight meanwhile); throws 429 when it locked in between.
   */
  async confirm(reservation: PinReservation): Promise<void> {
    await this.release(reservation);
    const lockedFor = await this.lockedFor(reservation.tokenHash);
    if (lockedFor !== null) throw portalRateLimited(TOO_MANY_WRONG_PINS, lockedFor);
  }

  /** Gives a reservation back: its PIN was never found wrong (an error before the hash ended). */
  async release(reservation: PinReservation): Promise<void> {
    await this.counters.release(reservation.tokenHash, reservation);
  }
}
