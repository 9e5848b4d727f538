import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../../shared/api/client.ts';
import { api, type SignedIn } from './api.ts';
import { t } from './i18n.ts';
import { problemMessage } from './problems.ts';
import type { Route } from './router.ts';
import { ErrorMessage, Link } from './ui/index.ts';
import { VerifyEmailBanner } from './features/access/verify-email-banner.tsx';
import { NotificationBell } from './features/notifications/index.ts';

/** One place in the navigation: its screen (the path /workspace/<screen>) and who sees it. */
interface Place {
  screen: string;
  label: string;
  show: boolean;
}

/**
 * The navigation's groups: the team's work apart from the settings. Another screen joins a
 * group with one line here.
 */
function navigationGroups(canManage: boolean): { id: string; label: string; places: Place[] }[] {
  return [
    {
      id: 'work',
      label: t('nav.work'),
      places: [
        { screen: 'home', label: t('nav.home'), show: true },
        { screen: 'onboardings', label: t('nav.onboardings'), show: true },
        { screen: 'clients', label: t('nav.clients'), show: true },
        { screen: 'templates', label: t('nav.templates'), show: true },
      ],
    },
    {
      id: 'settings',
      label: t('nav.settingsGroup'),
      places: [
        { screen: 'members', label: t('nav.members'), show: true },
        { screen: 'integrations', label: t('nav.integrations'), show: canManage },
        { screen: 'webhooks', label: t('nav.webhooks'), show: canManage },
        { screen: 'automations', label: t('nav.automations'), show: canManage },
        { screen: 'activity', label: t('nav.activity'), show: canManage },
        { screen: 'settings', label: t('nav.settings'), show: true },
      ],
    },
  ];
}

/** Pure: true when `place` is the page shown, or the list of the record shown (onboarding → onboardings). */
export const isCurrent = (route: Route, screen: string) =>
  route.screen === screen || `${route.screen}s` === screen;

/** Signing out here or everywhere; a session already ended counts as signed out. */
function useSignOut(onSignedOut: (message: string) => void) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signOut = async (everywhere: boolean) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const answer = everywhere
      ? await call(api.POST('/workspace/v1/sessions/end-all'))
      : await call(api.DELETE('/workspace/v1/sessions/current'));
    setBusy(false);
    if (answer.ok || answer.problem.code === 'session_required') {
      onSignedOut(t(everywhere ? 'signOut.doneEverywhere' : 'signOut.done'));
    } else {
      setError(problemMessage(answer.problem, t));
    }
  };
  return { error, busy, signOut };
}

/**
 * The signed-in workspace: a header (team, member, the bell), the navigation (a sidebar on
 * wide screens, a menu behind a disclosure button on phones) grouped into work and
 * settings with the current page marked, and the account's controls at its foot.
 */
export function Shell({
  me,
  route,
  navigate,
  onSignedOut,
  canManage,
  children,
}: {
  me: SignedIn;
  route: Route;
  navigate: (path: string) => void;
  onSignedOut: (message: string) => void;
  canManage: boolean;
  children: ComponentChildren;
}) {
  const { error, busy, signOut } = useSignOut(onSignedOut);
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // A page chosen from the menu closes it (on a phone the menu covers the page).
  useEffect(() => setOpen(false), [route]);
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const go = (path: string) => navigate(path);
  return (
    <>
      <a class="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <header class="site-header">
        <div class="header-inner shell-header">
          <div class="who">
            <p class="team-name">{me.team.name}</p>
            <p class="muted member-name">{t('shell.signedInAs', { name: me.member.name })}</p>
          </div>
          <div class="actions">
            <NotificationBell navigate={go} />
          </div>
        </div>
      </header>
      <div class="shell">
        <nav
          class="sidebar"
          aria-label={t('nav.label')}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && open) {
              event.preventDefault();
              close();
            }
          }}
        >
          <button
            ref={toggle}
            type="button"
            class="menu-button button-secondary"
            aria-expanded={open}
            aria-controls="nav-panel"
            onClick={() => setOpen(!open)}
          >
            {t('nav.menu')}
          </button>
          <div id="nav-panel" class={open ? 'nav-panel open' : 'nav-panel'}>
            {navigationGroups(canManage).map((group) => (
              <div class="nav-group" key={group.id}>
                <p class="nav-group-title" id={`nav-${group.id}`}>
                  {group.label}
                </p>
                <ul aria-labelledby={`nav-${group.id}`}>
                  {group.places
                    .filter((place) => place.show)
                    .map((place) => (
                      <li key={place.screen}>
                        <Link
                          href={place.screen === 'home' ? '/workspace' : `/workspace/${place.screen}`}
                          navigate={go}
                          current={isCurrent(route, place.screen)}
                        >
                          {place.label}
                        </Link>
                      </li>
                    ))}
                </ul>
              </div>
            ))}
            <div class="nav-foot">
              <Link href="/workspace/account" navigate={go} current={route.screen === 'account'}>
                {t('nav.account')}
              </Link>
              <button
                type="button"
                class="button-quiet"
                aria-disabled={busy || undefined}
                onClick={() => void signOut(false)}
              >
                {t('shell.signOut')}
              </button>
              <button
                type="button"
                class="button-quiet"
                aria-disabled={busy || undefined}
                onClick={() => void signOut(true)}
              >
                {t('shell.signOutEverywhere')}
              </button>
            </div>
          </div>
        </nav>
        <main id="main" class="main shell-main">
          <ErrorMessage text={error} />
          <VerifyEmailBanner />
          {children}
        </main>
      </div>
    </>
  );
}
