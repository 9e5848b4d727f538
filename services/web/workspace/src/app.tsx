import { useCallback, useEffect, useState } from 'preact/hooks';
import { call } from '../../shared/api/client.ts';
import { api, onSessionEnded, setCsrfToken, type SignedIn } from './api.ts';
import { speak, t } from './i18n.ts';
import { afterSignIn, isPublic, pathOf, routeOf, signInPath, type Route } from './router.ts';
import { mayLeave } from './leave-guard.ts';
import { ActivityScreen } from './features/events/activity.tsx';
import { AutomationsScreen } from './features/automation/automations.tsx';
import { ForgotPasswordScreen, ResetPasswordScreen } from './features/access/password-reset.tsx';
import { InvitationScreen } from './features/access/invitation.tsx';
import { IntegrationsScreen } from './features/access/api-keys/integrations.tsx';
import { MembersScreen } from './features/access/members/members.tsx';
import { PublicLayout, Shell } from './shell.tsx';
import { SettingsScreen } from './features/access/settings/settings.tsx';
import { AccountScreen } from './features/access/account/account.tsx';
import { SignInScreen } from './features/access/sign-in.tsx';
import { SignUpScreen } from './features/access/sign-up.tsx';
import { VerifyEmailScreen } from './features/access/verify-email.tsx';
import { WebhooksScreen } from './features/hooks/webhooks.tsx';
import { OnboardingsScreen } from './features/onboardings/onboardings.tsx';
import { OnboardingScreen } from './features/onboardings/onboarding.tsx';
import { ClientsScreen } from './features/clients/clients.tsx';
import { ClientScreen } from './features/clients/client.tsx';
import { TemplatesScreen } from './features/templates/templates.tsx';
import { TemplateBuilderScreen } from './features/templates/builder/template-builder.tsx';
import { HomeScreen } from './features/home/index.ts';
import { ScreenHeading } from './ui/index.ts';

const managers = (me: SignedIn) => me.role === 'owner' || me.role === 'admin';
/** Where a signed-in member lands: after sign-in, at the root, from a screen not for them. */
const HOME = pathOf({ screen: 'home' });
type Navigate = (path: string, options?: { replace?: boolean }) => void;

/** The workspace: who is signed in (GET /me), the current screen, and the screens. */
export function App() {
  const [route, setRoute] = useState<Route>(() => routeOf(location.pathname));
  const navigate = useCallback<Navigate>((path, { replace = false } = {}) => {
    if (!mayLeave(path)) return;
    if (replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    setRoute(routeOf(path));
  }, []);
  useEffect(() => {
    const back = () => setRoute(routeOf(location.pathname));
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, []);
  const { me, notice, signedIn, signedOut } = useSession(navigate);
  useRouteGuard(me, route, navigate);
  useEffect(() => {
    document.title = `${t(`title.${route.screen}`)} · ${t('app.name')}`;
  }, [route]);

  if (me === 'loading' || (route.screen === 'home' && !me)) {
    return (
      <main id="main" class="main">
        <p class="loading" role="status">
          {t('app.loading')}
        </p>
      </main>
    );
  }
  if (!me || isPublic(route) || route.screen === 'not-found') {
    return (
      <PublicLayout>
        <PublicScreen route={route} me={me} navigate={navigate} notice={notice} signedIn={signedIn} />
      </PublicLayout>
    );
  }
  return (
    <Shell me={me} route={route} navigate={navigate} onSignedOut={signedOut} canManage={managers(me)}>
      <TeamScreen route={route} me={me} navigate={navigate} signedOut={signedOut} />
    </Shell>
  );
}

/** Who is signed in: read once from GET /me, set by signing in, cleared by signing out or a session's end. */
function useSession(navigate: Navigate) {
  const [me, setMe] = useState<SignedIn | null | 'loading'>('loading');
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    void call(api.GET('/workspace/v1/me')).then(async (answer) => {
      if (answer.ok) setCsrfToken(answer.data.csrf_token);
      // A member reads the workspace in their language, else their team's; before sign-in, the browser's.
      await speak(answer.ok ? (answer.data.member.locale ?? answer.data.team.locale) : navigator.language);
      setMe(answer.ok ? answer.data : null);
    });
  }, []);
  const signedIn = useCallback(
    async (who: SignedIn) => {
      setCsrfToken(who.csrf_token);
      await speak(who.member.locale ?? who.team.locale);
      setMe(who);
      setNotice(null);
      // Back to the page asked for before sign-in (router.ts: same-origin team pages only).
      navigate(afterSignIn(location.search));
    },
    [navigate],
  );
  const signedOut = useCallback(
    (message: string) => {
      setCsrfToken('');
      setMe(null);
      setNotice(message);
      navigate('/workspace/sign-in');
    },
    [navigate],
  );
  useEffect(() => {
    onSessionEnded(() => signedOut(t('error.sessionRequired')));
    return () => onSessionEnded(null);
  }, [signedOut]);
  return { me, notice, signedIn, signedOut };
}

/** Where a screen cannot be shown to this visitor, go where it can. */
function useRouteGuard(me: SignedIn | null | 'loading', route: Route, navigate: Navigate) {
  useEffect(() => {
    if (me === 'loading') return;
    if (!me && route.screen === 'home') {
      navigate('/workspace/sign-in', { replace: true });
    } else if (!me && !isPublic(route) && route.screen !== 'not-found') {
      // Signed out on a team page: sign in, then come back to it.
      navigate(signInPath(`${location.pathname}${location.search}`), { replace: true });
    } else if (me && (route.screen === 'sign-in' || route.screen === 'sign-up')) {
      navigate(HOME, { replace: true });
    } else if (
      me &&
      (route.screen === 'integrations' ||
        route.screen === 'webhooks' ||
        route.screen === 'activity' ||
        route.screen === 'automations') &&
      !managers(me)
    ) {
      navigate(HOME, { replace: true });
    }
  }, [me, route, navigate]);
}

/** The screens anyone may open: sign in and up, password reset, invitations, email verification. */
function PublicScreen({
  route,
  me,
  navigate,
  notice,
  signedIn,
}: {
  route: Route;
  me: SignedIn | null;
  navigate: Navigate;
  notice: string | null;
  signedIn: (who: SignedIn) => void;
}) {
  return (
    <>
      {route.screen === 'sign-in' ? (
        <SignInScreen navigate={navigate} onSignedIn={signedIn} notice={notice} />
      ) : route.screen === 'sign-up' ? (
        <SignUpScreen navigate={navigate} />
      ) : route.screen === 'forgot-password' ? (
        <ForgotPasswordScreen navigate={navigate} />
      ) : route.screen === 'reset-password' ? (
        <ResetPasswordScreen navigate={navigate} token={route.token} />
      ) : route.screen === 'invitation' ? (
        <InvitationScreen navigate={navigate} token={route.token} onSignedIn={signedIn} />
      ) : route.screen === 'verify-email' ? (
        <VerifyEmailScreen navigate={navigate} token={route.token} signedIn={me !== null} />
      ) : route.screen === 'not-found' ? (
        <>
          <ScreenHeading>{t('notFound.title')}</ScreenHeading>
          <p>
            <a href={pathOf({ screen: 'home' })}>{t('notFound.home')}</a>
          </p>
        </>
      ) : (
        <p class="loading">{t('app.loading')}</p>
      )}
    </>
  );
}

/** The team's screens, inside the shell. */
function TeamScreen({
  route,
  me,
  navigate,
  signedOut,
}: {
  route: Route;
  me: SignedIn;
  navigate: Navigate;
  signedOut: (message: string) => void;
}) {
  return (
    <>
      {route.screen === 'home' ? (
        <HomeScreen me={me} navigate={navigate} />
      ) : route.screen === 'members' ? (
        <MembersScreen me={me} onLeft={() => signedOut(t('members.left'))} />
      ) : route.screen === 'integrations' ? (
        <IntegrationsScreen />
      ) : route.screen === 'webhooks' ? (
        <WebhooksScreen />
      ) : route.screen === 'activity' ? (
        <ActivityScreen />
      ) : route.screen === 'automations' ? (
        <AutomationsScreen me={me} />
      ) : route.screen === 'settings' ? (
        <SettingsScreen canEdit={managers(me)} stripeBack={route.payments} navigate={navigate} />
      ) : route.screen === 'account' ? (
        <AccountScreen me={me} />
      ) : route.screen === 'onboardings' ? (
        <OnboardingsScreen navigate={navigate} />
      ) : route.screen === 'onboarding' ? (
        <OnboardingScreen key={route.id} id={route.id} navigate={navigate} />
      ) : route.screen === 'clients' ? (
        <ClientsScreen navigate={navigate} />
      ) : route.screen === 'client' ? (
        <ClientScreen key={route.id} id={route.id} navigate={navigate} />
      ) : route.screen === 'templates' ? (
        <TemplatesScreen navigate={navigate} />
      ) : route.screen === 'template' ? (
        <TemplateBuilderScreen key={route.id} id={route.id} navigate={navigate} />
      ) : (
        <p class="loading">{t('app.loading')}</p>
      )}
    </>
  );
}
