import type { Clock } from '../../../shared/clock.ts';
import { readOnboarding } from '../onboarding-unit-of-work.ts';
import type { Pool } from '../../../shared/db/pool.ts';
import { CLIENT_TOKEN_PATTERN, hashClientToken, verifyPin } from '../link-secrets.ts';
import type { PinHash } from '../onboarding-events.ts';
import { activeTokenHash, ERROR_TEXTS, type Onboarding } from '../decider/index.ts';
import type { EventStore } from '../../../shared/event-store/event-store.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import type { RateLimiter } from '../../../shared/rate-limit/rate-limiter.ts';
import {
  enforcePortalLimit,
  PIN_CHECKS_PER_LINK_LIMIT,
  portalRateLimited,
  TOO_MANY_PIN_CHECKS,
} from './portal-rate-limits.ts';
import { linkSessionLive } from './portal-link-sessions.ts';
import { TOO_MANY_WRONG_PINS, type PinAttempts } from './portal-pin-attempts.ts';

/**
 * Who may use a portal link (operator-and-portal-api.md, Client portal API):
 *
 * 1. the token is the active client token of its onboarding and the link works now (not
 *    deactivated by a resend, cancel or erasure; the onboarding not archived, cancelled or
 *    expired; expires_at not passed by the service clock; the client not erased), else
 *    404 link_inactive, and nothing changes;
 * 2. a link with a PIN needs a live link session of this link and PIN (a cookie,
 *    ./portal-link-sessions.ts; no PIN is hashed and nothing is counted), or header
 *    X-Onboarding-Pin with that PIN, else 401 pin_required. A PIN presented is counted
 *    first against the link's PIN checks per minute (./portal-rate-limits.ts), then
 *    reserved as an attempt of the wrong-PIN lock (./portal-pin-attempts.ts: 10 wrong PINs
 *    per 15 minutes per link, an atomic count in the shared rate-limit store; 429
 *    rate_limited once locked; RATE_LIMITS=off turns both off), and only then hashed, in
 *    the thread pool (services/onboardings/link-secrets.ts). A right PIN is accepted only when the link is
 *    still not locked after its check. A live session still works while the link is locked:
 *    the lock stops PIN guesses, not the client who already gave the PIN.
 *
 * The command that follows checks the token again inside its transaction (the decider's
 * link rule), so a link deactivated in between still answers link_inactive.
 */

export const PIN_HEADER = 'x-onboarding-pin';
export const PIN_REQUIRED_TEXT = 'This form needs its PIN: send it in the X-Onboarding-Pin header';

export const linkInactive = () => codedError(404, 'link_inactive', ERROR_TEXTS.link_inactive);
export const pinRequired = () => codedError(401, 'pin_required', PIN_REQUIRED_TEXT);

export interface PortalLink {
  onboardingId: string;
  tokenHash: string;
  /** The onboarding as folded from its stream when the request came in. */
  state: Onboarding;
}

interface Deps {
  pool: Pool;
  eventStore: EventStore;
  clock: Clock;
  /** Null when RATE_LIMITS=off. */
  limiter: RateLimiter | null;
  /** The wrong-PIN lock; null when RATE_LIMITS=off. */
  pinAttempts: PinAttempts | null;
}

/** What a request brings to open a link with a PIN. */
export interface PinProof {
  /** The X-Onboarding-Pin header. */
  pin: string | string[] | undefined;
  /** The link session id of the request's cookie for this link; undefined to ignore any. */
  sessionId?: (tokenHash: string) => string | undefined;
}

export class PortalAccess {
  constructor(private readonly deps: Deps) {}

  /**
   * The link of `token` when it works now and the request may use it (a live link
   * session, or the right PIN); throws the portal's errors otherwise.
   */
  async open(token: string, proof: PinProof): Promise<PortalLink> {
    const normalized = token.toLowerCase();
    if (!CLIENT_TOKEN_PATTERN.test(normalized)) throw linkInactive();
    const tokenHash = hashClientToken(normalized);
    const link = await this.deps.pool.query<{ onboarding_id: string }>(
      'select onboarding_id from onboarding_links where token_hash = $1',
      [tokenHash],
    );
    const onboardingId = link.rows[0]?.onboarding_id;
    if (!onboardingId) throw linkInactive();
    const { state } = await readOnboarding(this.deps.eventStore, onboardingId);
    if (state.status === 'absent' || activeTokenHash(state, this.deps.clock.now()) !== tokenHash) {
      throw linkInactive();
    }
    if (await this.clientErased(state)) throw linkInactive();
    if (state.pin !== null && !(await this.sessionLive(tokenHash, state.pin, proof))) {
      await this.checkPin(tokenHash, state.pin, Array.isArray(proof.pin) ? proof.pin[0] : proof.pin);
    }
    return { onboardingId, tokenHash, state };
  }

  /** Whether the request carries a live link session of this link and its current PIN. */
  async sessionLive(tokenHash: string, pin: PinHash, proof: Pick<PinProof, 'sessionId'>): Promise<boolean> {
    const id = proof.sessionId?.(tokenHash);
    if (!id) return false;
    return linkSessionLive(this.deps.pool, { id, tokenHash, pinSalt: pin.salt, now: this.deps.clock.now() });
  }

  /**
   * Seconds until the link of `tokenHash` takes PINs again after too many wrong ones, or
   * null when it takes them now (read only: nothing is counted).
   */
  async pinLockedFor(tokenHash: string): Promise<number | null> {
    return this.deps.pinAttempts ? this.deps.pinAttempts.lockedFor(tokenHash) : null;
  }

  /** The client's erasure may be recorded before its onboardings' (clients read model). */
  private async clientErased(state: Onboarding): Promise<boolean> {
    const { rows } = await this.deps.pool.query<{ erased: boolean }>(
      'select client_is_erased(erased_at, email) as erased from clients where id = $1 and team_id = $2',
      [state.client_id, state.team_id],
    );
    return rows[0]?.erased === true;
  }

  private async checkPin(tokenHash: string, stored: PinHash, pin: string | undefined): Promise<void> {
    const { limiter, pinAttempts } = this.deps;
    if (pin === undefined) {
      const lockedFor = await this.pinLockedFor(tokenHash);
      if (lockedFor !== null) throw portalRateLimited(TOO_MANY_WRONG_PINS, lockedFor);
      throw pinRequired();
    }
    if (limiter) {
      await enforcePortalLimit(
        limiter,
        `portal_pin:${tokenHash}`,
        PIN_CHECKS_PER_LINK_LIMIT,
        TOO_MANY_PIN_CHECKS,
      );
    }
    if (!pinAttempts) {
      if (await verifyPin(pin.trim(), stored)) return;
      throw pinRequired();
    }
    const reservation = await pinAttempts.reserve(tokenHash);
    let right: boolean;
    try {
      right = await verifyPin(pin.trim(), stored);
    } catch (error) {
      await pinAttempts.release(reservation);
      throw error;
    }
    // A wrong PIN keeps its reservation: it counts against the lock.
    if (!right) throw pinRequired();
    await pinAttempts.confirm(reservation);
  }
}
