/**
 * The client's form page. It reads the link's token from /f/<token>, asks the face
 * endpoint (which records nothing) what the link is, and only then opens the form with
 * GET /portal/v1/onboardings/<token>: that request records onboarding.started, so a
 * person opens the form, never a bare GET or prefetch of the link.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  ApiError,
  PortalClient,
  tokenFromPath,
  type Face,
  type FaceTeam,
  type PortalOnboarding,
} from './api.ts';
import { applyAccent } from './branding.ts';
import {
  createFormats,
  createTranslate,
  isLocale,
  LANGUAGE_NAMES,
  loadMessages,
  LOCALES,
  pickLocale,
  type Locale,
  type Translate,
} from './i18n.ts';
import { DeadEnd, type DeadEndKind } from './screens/dead-end.tsx';
import { Done } from './screens/done.tsx';
import { FormScreen } from './screens/form.tsx';
import { Loading } from './screens/loading.tsx';
import { PinScreen, type PinError } from './screens/pin.tsx';
import { inReviewState } from './sent-back.ts';
import { forgetStoredPins, storedLanguage, storeLanguage } from './storage.ts';

type Screen =
  | { kind: 'loading' }
  | { kind: 'pin'; error: PinError | null }
  | { kind: 'dead'; state: DeadEndKind; retryAfterSeconds: number | null }
  | { kind: 'form' }
  | { kind: 'done'; at: string };

const lockMinutes = (seconds: number | null) => Math.max(1, Math.ceil((seconds ?? 60) / 60));

export function App() {
  const token = useMemo(() => tokenFromPath(window.location.pathname), []);
  const portal = useMemo(() => new PortalClient(token ?? ''), [token]);
  const [face, setFace] = useState<Face | null>(null);
  const [locale, setLocale] = useState<Locale | null>(null);
  const [text, setText] = useState<{ locale: Locale; t: Translate } | null>(null);
  const [screen, setScreen] = useState<Screen>({ kind: 'loading' });
  const [onboarding, setOnboarding] = useState<PortalOnboarding | null>(null);
  const started = useRef(false);

  // The page's language: the one chosen on this link before, else the client's, else en-US.
  useEffect(() => {
    if (!locale) return;
    let current = true;
    loadMessages(locale).then(
      (messages) => {
        if (!current) return;
        setText({ locale, t: createTranslate(locale, messages) });
        document.documentElement.lang = locale;
      },
      () => {
        if (current && locale !== 'en-US') setLocale('en-US');
      },
    );
    return () => {
      current = false;
    };
  }, [locale]);

  function chooseLocale(next: Locale) {
    if (token) storeLanguage(token, next);
    setLocale(next);
  }

  function adoptFace(next: Face) {
    setFace(next);
    applyAccent(next.team?.accent_color);
    setLocale((current) => {
      if (current) return current;
      const chosen = token ? storedLanguage(token) : null;
      return isLocale(chosen) ? chosen : pickLocale(next.client?.locale);
    });
  }

  function deadEnd(state: DeadEndKind, retryAfterSeconds: number | null = null) {
    setScreen({ kind: 'dead', state, retryAfterSeconds });
  }

  /** A link that answers 404 now: ask the face what happened (expired, cancelled, completed…). */
  async function reloadFace() {
    try {
      const next = await portal.face();
      adoptFace(next);
      const state = next.link.state;
      if (state === 'open' || state === 'pin_required') deadEnd('error');
      else deadEnd(state, next.link.retry_after_seconds);
    } catch {
      deadEnd('error');
    }
  }

  /** Opens the form (records onboarding.started on the first open after a send). */
  async function openForm(fromPinScreen: boolean): Promise<PinError | null> {
    try {
      const answer = await portal.open();
      if (answer.team || answer.client) {
        setFace((current) => ({
          link: current?.link ?? { state: 'open', retry_after_seconds: null, session: false },
          team: answer.team ?? current?.team ?? null,
          client: answer.client ?? current?.client ?? null,
        }));
      }
      setOnboarding(answer.onboarding);
      if (answer.onboarding.status === 'completed' && !inReviewState(answer.onboarding)) deadEnd('completed');
      else if (answer.onboarding.status === 'cancelled' || answer.onboarding.status === 'expired') {
        deadEnd(answer.onboarding.status);
      } else setScreen({ kind: 'form' });
      return null;
    } catch (error) {
      return failed(error, fromPinScreen);
    }
  }

  /** Where a refused request leads; on the PIN screen, the message to show there. */
  function failed(error: unknown, onPinScreen: boolean): PinError | null {
    if (!(error instanceof ApiError)) {
      deadEnd('error');
      return null;
    }
    if (error.status === 401) {
      const wrong = { key: 'pin.wrong' };
      if (!onPinScreen) setScreen({ kind: 'pin', error: null });
      return wrong;
    }
    if (error.status === 429) {
      const locked = { key: 'pin.locked', values: { minutes: lockMinutes(error.retryAfterSeconds) } };
      if (!onPinScreen) setScreen({ kind: 'pin', error: locked });
      return locked;
    }
    if (error.status === 404 || error.status === 409 || error.status === 410) {
      void reloadFace();
      return null;
    }
    deadEnd('error');
    return null;
  }

  async function start() {
    setScreen({ kind: 'loading' });
    if (!token) {
      setLocale((current) => current ?? pickLocale(navigator.language));
      deadEnd('inactive');
      return;
    }
    let next: Face;
    try {
      next = await portal.face();
    } catch {
      setLocale((current) => current ?? pickLocale(navigator.language));
      deadEnd('error');
      return;
    }
    adoptFace(next);
    const { state, retry_after_seconds: retryAfter, session } = next.link;
    // A live link session opens the form without the PIN, even while wrong PINs lock the link.
    if (state === 'open' || (session && (state === 'pin_required' || state === 'pin_locked'))) {
      await openForm(false);
    } else if (state === 'pin_required') setScreen({ kind: 'pin', error: null });
    else deadEnd(state, retryAfter);
  }

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    forgetStoredPins();
    void start();
  }, []);

  async function refresh() {
    try {
      const answer = await portal.open();
      setOnboarding(answer.onboarding);
    } catch (error) {
      failed(error, false);
    }
  }

  const formats = useMemo(
    () => createFormats(text?.locale ?? 'en-US', face?.client ?? null),
    [text?.locale, face?.client],
  );

  const team: FaceTeam | null = face?.team ?? null;
  const teamName = team?.display_name ?? '';
  const t = text?.t ?? null;

  if (!t) {
    return (
      <main id="main" class="main" tabIndex={-1} aria-busy="true">
        <Loading t={null} />
      </main>
    );
  }

  return (
    <>
      <a class="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header class="site-header">
        <div class="header-inner">
          <div class="brand">
            {team?.logo_url ? (
              <img class="logo" src={team.logo_url} alt={t('app.logoAlt', { team: teamName })} />
            ) : null}
            {teamName ? <p class="team-name">{teamName}</p> : null}
          </div>
          <div class="language">
            <label for="language">{t('language.label')}</label>
            <select
              id="language"
              value={text!.locale}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (isLocale(value)) chooseLocale(value);
              }}
            >
              {LOCALES.map((option) => (
                <option key={option} value={option} lang={option}>
                  {LANGUAGE_NAMES[option]}
                </option>
              ))}
            </select>
          </div>
        </div>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        {screen.kind === 'loading' ? <Loading t={t} /> : null}
        {screen.kind === 'pin' ? (
          <PinScreen
            team={teamName}
            t={t}
            initialError={screen.error}
            onSubmit={async (pin) => {
              try {
                await portal.openSession(pin);
              } catch (error) {
                return failed(error, true);
              }
              return openForm(true);
            }}
          />
        ) : null}
        {screen.kind === 'dead' ? (
          <DeadEnd
            kind={screen.state}
            team={team ? teamName : null}
            retryAfterSeconds={screen.retryAfterSeconds}
            t={t}
            onRetry={
              screen.state === 'error' || screen.state === 'pin_locked' ? () => void start() : undefined
            }
          />
        ) : null}
        {screen.kind === 'form' && onboarding ? (
          <FormScreen
            portal={portal}
            onboarding={onboarding}
            locale={text!.locale}
            t={t}
            formats={formats}
            team={teamName}
            refresh={refresh}
            onDone={(at) => setScreen({ kind: 'done', at })}
            onFatal={(error) => failed(error, false)}
          />
        ) : null}
        {screen.kind === 'done' ? <Done team={teamName} date={formats.date(screen.at)} t={t} /> : null}
      </main>
    </>
  );
}
