/**
 * The client's form page. It reads the link's token from /f/<token>, asks the face
 * endpoint (which records nothing) what the link is, and only then opens the form with
 * GET /portal/v1/onboardings/<token>: that request records onboarding.started, so a
 * person opens the form, never a bare GET or prefetch of the link (./link-flow.ts).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { PortalClient, tokenFromPath, type Face, type FaceTeam, type PortalOnboarding } from './api.ts';
import { arriveFromCheckout } from './checkout-return.ts';
import { createFormats, type Locale, type Translate } from './i18n.ts';
import { enterPin, failed, refresh, start, type LinkFlow, type Screen } from './link-flow.ts';
import { DeadEnd } from './screens/dead-end.tsx';
import { Done } from './screens/done.tsx';
import { FormScreen } from './screens/form.tsx';
import { LanguageSelect } from './screens/language-select.tsx';
import { Loading } from './screens/loading.tsx';
import { PinScreen } from './screens/pin.tsx';
import { forgetStoredPins, storeLanguage } from './storage.ts';
import { useText } from './use-text.ts';

function PageHeader(props: {
  team: FaceTeam | null;
  t: Translate;
  locale: Locale;
  onChoose(locale: Locale): void;
}) {
  const { team, t } = props;
  const teamName = team?.display_name ?? '';
  return (
    <header class="site-header">
      <div class="header-inner">
        <div class="brand">
          {team?.logo_url ? (
            <img class="logo" src={team.logo_url} alt={t('app.logoAlt', { team: teamName })} />
          ) : null}
          {teamName ? <p class="team-name">{teamName}</p> : null}
        </div>
        <LanguageSelect locale={props.locale} onChoose={props.onChoose} label={t('language.label')} />
      </div>
    </header>
  );
}

export function App() {
  // Back from Stripe Checkout (/f/checkout-return), the link comes from this tab's storage.
  const arrival = useMemo(() => arriveFromCheckout(), []);
  const token = useMemo(() => (arrival ? arrival.token : tokenFromPath(window.location.pathname)), [arrival]);
  const portal = useMemo(() => new PortalClient(token ?? ''), [token]);
  const [face, setFace] = useState<Face | null>(null);
  const [locale, setLocale] = useState<Locale | null>(null);
  const [screen, setScreen] = useState<Screen>({ kind: 'loading' });
  const [onboarding, setOnboarding] = useState<PortalOnboarding | null>(null);
  const started = useRef(false);
  const flow: LinkFlow = { portal, token, setScreen, setFace, setLocale, setOnboarding };
  // The page's language: the one chosen on this link before, else the client's, else en-US.
  const text = useText(locale, (failedLocale) => {
    if (failedLocale !== 'en-US') setLocale('en-US');
  });

  function chooseLocale(next: Locale) {
    if (token) storeLanguage(token, next);
    setLocale(next);
  }

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    forgetStoredPins();
    void start(flow);
  }, []);

  const formats = useMemo(
    () => createFormats(text?.locale ?? 'en-US', face?.client ?? null),
    [text?.locale, face?.client],
  );

  const team: FaceTeam | null = face?.team ?? null;
  const teamName = team?.display_name ?? '';
  const t = text?.t ?? null;

  // Nothing is drawn until the page's language is loaded: an empty frame drawn earlier would
  // be pushed down by the header when it comes (a layout shift people see as a jump).
  if (!text || !t) return null;

  return (
    <>
      <a class="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <PageHeader team={team} t={t} locale={text.locale} onChoose={chooseLocale} />
      <main id="main" class="main" tabIndex={-1}>
        {screen.kind === 'loading' ? <Loading t={t} /> : null}
        {screen.kind === 'pin' ? (
          <PinScreen
            team={teamName}
            t={t}
            initialError={screen.error}
            onSubmit={(pin) => enterPin(flow, pin)}
          />
        ) : null}
        {screen.kind === 'dead' ? (
          <DeadEnd
            kind={screen.state}
            team={team ? teamName : null}
            retryAfterSeconds={screen.retryAfterSeconds}
            t={t}
            onRetry={
              screen.state === 'error' || screen.state === 'pin_locked' ? () => void start(flow) : undefined
            }
          />
        ) : null}
        {screen.kind === 'form' && onboarding ? (
          <FormScreen
            portal={portal}
            onboarding={onboarding}
            locale={text.locale}
            t={t}
            formats={formats}
            team={teamName}
            checkoutReturn={arrival?.back ?? null}
            refresh={() => refresh(flow)}
            onDone={(at) => {
              setScreen({ kind: 'done', at });
              void refresh(flow);
            }}
            onFatal={(error) => failed(flow, error, false)}
          />
        ) : null}
        {screen.kind === 'done' ? (
          <Done {...{ team: teamName, at: screen.at, onboarding, token, t, formats }} locale={text.locale} />
        ) : null}
      </main>
    </>
  );
}
