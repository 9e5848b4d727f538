/**
 * The way through a link: the face (which records nothing) says what the link is; an open
 * link, or one this browser holds a live link session of, opens the form (GET
 * /portal/v1/onboardings/{token} records onboarding.started); a link with a PIN asks for it;
 * any other link, and a refusal the form cannot fix, ends at a dead end that says why.
 */
import type { Dispatch, StateUpdater } from 'preact/hooks';
import { ApiError, type Face, type PortalClient, type PortalOnboarding } from './api.ts';
import { applyAccent } from './branding.ts';
import { isLocale, pickLocale, type Locale } from './i18n.ts';
import type { DeadEndKind } from './screens/dead-end.tsx';
import type { PinError } from './screens/pin.tsx';
import { formLocale } from './form-locale.ts';
import { inReviewState } from './sent-back.ts';
import { storedLanguage } from './storage.ts';

export type Screen =
  | { kind: 'loading' }
  | { kind: 'pin'; error: PinError | null }
  | { kind: 'dead'; state: DeadEndKind; retryAfterSeconds: number | null }
  | { kind: 'form' }
  | { kind: 'done'; at: string | null };

/** What the way through a link reads and sets: the page's state. */
export interface LinkFlow {
  portal: PortalClient;
  token: string | null;
  setScreen: Dispatch<Screen>;
  setFace: Dispatch<StateUpdater<Face | null>>;
  setLocale: Dispatch<StateUpdater<Locale | null>>;
  setOnboarding: Dispatch<PortalOnboarding>;
}

const lockMinutes = (seconds: number | null) => Math.max(1, Math.ceil((seconds ?? 60) / 60));

function deadEnd(flow: LinkFlow, state: DeadEndKind, retryAfterSeconds: number | null = null) {
  flow.setScreen({ kind: 'dead', state, retryAfterSeconds });
}

/**
 * The page's language: the one chosen on this link before, else the client's, else the
 * browser's when it is one of the nine, else the team's (./form-locale.ts).
 */
function adoptFace(flow: LinkFlow, next: Face) {
  flow.setFace(next);
  applyAccent(next.team?.accent_color);
  flow.setLocale((current) => {
    if (current) return current;
    const chosen = flow.token ? storedLanguage(flow.token) : null;
    return isLocale(chosen) ? chosen : formLocale(next.client, navigator.languages ?? [navigator.language]);
  });
}

/** A link that answers 404 now: ask the face what happened (expired, cancelled, completed…). */
async function reloadFace(flow: LinkFlow) {
  try {
    const next = await flow.portal.face();
    adoptFace(flow, next);
    const state = next.link.state;
    if (state === 'open' || state === 'pin_required') deadEnd(flow, 'error');
    else deadEnd(flow, state, next.link.retry_after_seconds);
  } catch {
    deadEnd(flow, 'error');
  }
}

/** Where a refused request leads; on the PIN screen, the message to show there. */
export function failed(flow: LinkFlow, error: unknown, onPinScreen: boolean): PinError | null {
  if (!(error instanceof ApiError)) {
    deadEnd(flow, 'error');
    return null;
  }
  if (error.status === 401) {
    const wrong = { key: 'pin.wrong' };
    if (!onPinScreen) flow.setScreen({ kind: 'pin', error: null });
    return wrong;
  }
  if (error.status === 429) {
    const locked = { key: 'pin.locked', values: { minutes: lockMinutes(error.retryAfterSeconds) } };
    if (!onPinScreen) flow.setScreen({ kind: 'pin', error: locked });
    return locked;
  }
  if (error.status === 404 || error.status === 409 || error.status === 410) {
    void reloadFace(flow);
    return null;
  }
  deadEnd(flow, 'error');
  return null;
}

/** Opens the form (records onboarding.started on the first open after a send). */
export async function openForm(flow: LinkFlow, fromPinScreen: boolean): Promise<PinError | null> {
  try {
    const answer = await flow.portal.open();
    if (answer.team || answer.client) {
      flow.setFace((current) => ({
        link: current?.link ?? { state: 'open', retry_after_seconds: null, session: false },
        team: answer.team ?? current?.team ?? null,
        client: answer.client ?? current?.client ?? null,
      }));
    }
    flow.setOnboarding(answer.onboarding);
    const { status } = answer.onboarding;
    // A completed form opens at its copy of the answers (the done screen), not an empty end.
    if (status === 'completed' && !inReviewState(answer.onboarding))
      flow.setScreen({ kind: 'done', at: null });
    else if (status === 'cancelled' || status === 'expired') deadEnd(flow, status);
    else flow.setScreen({ kind: 'form' });
    return null;
  } catch (error) {
    return failed(flow, error, fromPinScreen);
  }
}

/** Sends the PIN once (the link session's cookie comes back), then opens the form. */
export async function enterPin(flow: LinkFlow, pin: string): Promise<PinError | null> {
  try {
    await flow.portal.openSession(pin);
  } catch (error) {
    return failed(flow, error, true);
  }
  return openForm(flow, true);
}

/** Reloads the onboarding (files, signatures, submitted steps). */
export async function refresh(flow: LinkFlow): Promise<void> {
  try {
    const answer = await flow.portal.open();
    flow.setOnboarding(answer.onboarding);
  } catch (error) {
    failed(flow, error, false);
  }
}

export async function start(flow: LinkFlow): Promise<void> {
  flow.setScreen({ kind: 'loading' });
  if (!flow.token) {
    flow.setLocale((current) => current ?? pickLocale(navigator.language));
    deadEnd(flow, 'inactive');
    return;
  }
  let next: Face;
  try {
    next = await flow.portal.face();
  } catch {
    flow.setLocale((current) => current ?? pickLocale(navigator.language));
    deadEnd(flow, 'error');
    return;
  }
  adoptFace(flow, next);
  const { state, retry_after_seconds: retryAfter, session } = next.link;
  // A live link session opens the form without the PIN, even while wrong PINs lock the link.
  // A completed link opens too: its done screen shows the copy (after the PIN, when it has one).
  if (
    state === 'open' ||
    state === 'completed' ||
    (session && (state === 'pin_required' || state === 'pin_locked'))
  ) {
    await openForm(flow, false);
  } else if (state === 'pin_required') flow.setScreen({ kind: 'pin', error: null });
  else deadEnd(flow, state, retryAfter);
}
