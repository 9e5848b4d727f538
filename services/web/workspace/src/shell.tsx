import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../../shared/api/client.ts';
import { api, type SignedIn } from './api.ts';
import { t } from './i18n.ts';
import { problemMessage } from './problems.ts';
import type { Route } from './router.ts';
import { ErrorMessage, Link } from './ui/index.ts';
import { VerifyEmailBanner } from './features/access/verify-email-banner.tsx';

/** The pages before sign-in: the product's name and one column. */
export function PublicLayout({ children }: { children: ComponentChildren }) {
  return (
    <>
      <a class="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <header class="site-header">
        <div class="header-inner">
          <p class="team-name">{t('app.name')}</p>
        </div>
      </header>
      <main id="main" class="main">
        <div class="card">{children}</div>
      </main>
    </>
  );
}

/** The signed-in workspace: team and member, sign-out, the tabs the role may see. */
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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // On a phone the tabs scroll sideways: keep the current one in view.
  useEffect(() => {
    document
      .querySelector('.tabs a[aria-current="page"]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [route.screen]);
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
  const tabs = [
    { screen: 'onboardings', label: t('nav.onboardings'), show: true },
    { screen: 'clients', label: t('nav.clients'), show: true },
    { screen: 'templates', label: t('nav.templates'), show: true },
    { screen: 'members', label: t('nav.members'), show: true },
    { screen: 'integrations', label: t('nav.integrations'), show: canManage },
    { screen: 'webhooks', label: t('nav.webhooks'), show: canManage },
    { screen: 'activity', label: t('nav.activity'), show: canManage },
    { screen: 'automations', label: t('nav.automations'), show: canManage },
    { screen: 'settings', label: t('nav.settings'), show: true },
    { screen: 'account', label: t('nav.account'), show: true },
  ];
  return (
    <>
      <a class="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <header class="site-header">
        <div class="header-inner wide">
          <div class="who">
            <p class="team-name">{me.team.name}</p>
            <p class="muted member-name">{t('shell.signedInAs', { name: me.member.name })}</p>
          </div>
          <div class="actions">
            <button
              type="button"
              class="button-secondary"
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
        <nav class="tabs" aria-label={t('nav.label')}>
          <ul class="header-inner wide">
            {tabs
              .filter((tab) => tab.show)
              .map((tab) => (
                <li key={tab.screen}>
                  <Link
                    href={`/workspace/${tab.screen}`}
                    navigate={navigate}
                    current={route.screen === tab.screen || `${route.screen}s` === tab.screen}
                  >
                    {tab.label}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
      </header>
      <main id="main" class="main wide">
        <ErrorMessage text={error} />
        <VerifyEmailBanner />
        {children}
      </main>
    </>
  );
}
