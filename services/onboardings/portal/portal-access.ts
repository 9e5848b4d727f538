import type { Clock } from '../../../shared/clock.ts';
import { readOnboarding } from '../onboarding-unit-of-work.ts';
import type { Pool } from '../../../shared/db/pool.ts';
import { CLIENT_TOKEN_PATTERN, hashClientToken, verifyPin } from '../link-secrets.ts';
import { activeTokenHash, ERROR_TEXTS, type Onboarding } from '../onboarding-decider.ts';
import type { EventStore } from '../../../shared/event-store/event-store.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import type { RateLimiter } from '../../../shared/rate-limit/rate-limiter.ts';
import {
  enforcePortalLimit,
  PIN_CHECKS_PER_LINK_LIMIT,
  portalRateLimited,
  TOO_MANY_PIN_CHECKS,
} from './portal-rate-limits.ts';

/**
 * Who may use a portal link (operator-and-portal-api.md, Client portal API):
 *
 * 1. the token is the active client token of its onboarding and the link works now (not
 *    deactivated by a resend, cancel or erasure; the onboarding not archived, cancelled or
 *    expired; expires_at not passed by the service clock; the client not erased), else
 *    404 link_inactive, and nothing changes;
 * 2. a link with a PIN needs header X-Onboarding-Pin with that PIN, else 401 pin_required.
 *    Wrong PINs are counted per link: after PIN_FAILURE_LIMIT failures within
 *    PIN_FAILURE_WINDOW_MS (service clock) the link answers 429 rate_limited until the
 *    window ends (RATE_LIMITS=off turns this off), so 6 digits cannot be tried through.
 *    Every PIN presented, right or wrong, also counts against the link's PIN checks per
 *    minute (./portal-rate-limits.ts) before it is hashed; the hash itself runs in the
 *    thread pool (services/onboardings/link-secrets.ts).
 *
 * The command that follows checks the token again inside its transaction (the decider's
 * link rule), so a link deactivated in between still answers link_inactive.
 */

export const PIN_HEADER = 'x-onboarding-pin';
export const PIN_REQUIRED_TEXT = 'This form needs its PIN: send it in the X-Onboarding-Pin header';
export const PIN_FAILURE_LIMIT = 10;
export const PIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

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
}

export class PortalAccess {
  private readonly failures = new Map<string, { windowStart: number; count: number }>();

  constructor(private readonly deps: Deps) {}

  /** The link of `token` when it works now and the PIN (if any) is right; throws the portal's errors otherwise. */
  async open(token: string, pin: string | string[] | undefined): Promise<PortalLink> {
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
    if (state.pin !== null) await this.checkPin(tokenHash, state, Array.isArray(pin) ? pin[0] : pin);
    return { onboardingId, tokenHash, state };
  }

  /**
   * Seconds until the link of `tokenHash` takes PINs again after too many wrong ones, or
   * null when it takes them now (read only: nothing is counted).
   */
  pinLockedFor(tokenHash: string): number | null {
    if (!this.deps.limiter) return null;
    const now = this.deps.clock.now().getTime();
    const windowStart = Math.floor(now / PIN_FAILURE_WINDOW_MS) * PIN_FAILURE_WINDOW_MS;
    const entry = this.failures.get(tokenHash);
    if (!entry || entry.windowStart !== windowStart || entry.count < PIN_FAILURE_LIMIT) return null;
    return Math.max(1, Math.ceil((windowStart + PIN_FAILURE_WINDOW_MS - now) / 1000));
  }

  /** The client's erasure may be recorded before its onboardings' (clients read model). */
  private async clientErased(state: Onboarding): Promise<boolean> {
    const { rows } = await this.deps.pool.query<{ erased: boolean }>(
      'select client_is_erased(erased_at, email) as erased from clients where id = $1 and team_id = $2',
      [state.client_id, state.team_id],
    );
    return rows[0]?.erased === true;
  }

  private async checkPin(tokenHash: string, state: Onboarding, pin: string | undefined): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const windowStart = Math.floor(now / PIN_FAILURE_WINDOW_MS) * PIN_FAILURE_WINDOW_MS;
    const entry = this.failures.get(tokenHash);
    if (entry && entry.windowStart !== windowStart) this.failures.delete(tokenHash);
    const lockedFor = this.pinLockedFor(tokenHash);
    if (lockedFor !== null) {
      throw portalRateLimited('Too many wrong PINs for this link; try again later', lockedFor);
    }
    if (pin === undefined || state.pin === null) throw pinRequired();
    if (this.deps.limiter) {
      await enforcePortalLimit(
        this.deps.limiter,
        `portal_pin:${tokenHash}`,
        PIN_CHECKS_PER_LINK_LIMIT,
        TOO_MANY_PIN_CHECKS,
      );
    }
    if (await verifyPin(pin.trim(), state.pin)) return;
    this.countFailure(tokenHash, windowStart);
    throw pinRequired();
  }

  private countFailure(tokenHash: string, windowStart: number): void {
    if (this.failures.size > 10_000) {
      for (const [key, value] of this.failures)
        if (value.windowStart !== windowStart) this.failures.delete(key);
    }
    const entry = this.failures.get(tokenHash) ?? { windowStart, count: 0 };
    entry.count++;
    this.failures.set(tokenHash, entry);
  }
}
