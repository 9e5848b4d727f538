import { lazy, Suspense } from 'preact/compat';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call } from '../../shared/api/client.ts';
import { api, isManager, onSessionEnded, setCsrfToken, type SignedIn } from './api.ts';
import { speak, t } from './i18n.ts';
import { afterSignIn, isPublic, pathOf, routeOf, signInPath, type Route } from './router.ts';
import { mayLeave } from './leave-guard.ts';
import { PublicLayout } from './public-layout.tsx';
import { forgetSignedIn, mayBeSignedIn } from './signed-in-hint.ts';
import { SignInScreen } from './features/access/sign-in.tsx';
import { Loading, ScreenHeading } from './ui/index.ts';

/*
 * The first chunk holds what a signed-out visitor needs to sign in; everything else is loaded
 * when first shown (preact/compat's lazy and Suspense): the other public screens, and the
 * signed-in workspace (./team-app.tsx), which loads each of its screens the same way.
 */
const TeamApp = lazy(() => import('./team-app.tsx'));
const SignUpScreen = lazy(() =>
  import('./features/access/sign-up.tsx').then((m) => ({ default: m.SignUpScreen })),
);
const ForgotPasswordScreen = lazy(() =>
  import('./features/access/password-reset.tsx').then((m) => ({ default: m.ForgotPasswordScreen })),
);
const ResetPasswordScreen = lazy(() =>
  import('./features/access/password-reset.tsx').then((m) => ({ default: m.ResetPasswordScreen })),
);
const InvitationScreen = lazy(() =>
  import('./features/access/invitation.tsx').then((m) => ({ default: m.InvitationScreen })),
);
const VerifyEmailScreen = lazy(() =>
  import('./features/access/verify-email.tsx').then((m) => ({ default: m.VerifyEmailScreen })),
);

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
        <Loading />
      </main>
    );
  }
  if (!me || isPublic(route) || route.screen === 'not-found') {
    return (
      <PublicLayout>
        <Suspense fallback={<Loading />}>
          <PublicScreen route={route} me={me} navigate={navigate} notice={notice} signedIn={signedIn} />
        </Suspense>
      </PublicLayout>
    );
  }
  return (
    <Suspense
      fallback={
        <main id="main" class="main">
          <Loading />
        </main>
      }
    >
      <TeamApp me={me} route={route} navigate={navigate} signedOut={signedOut} />
    </Suspense>
  );
}

/** Who is signed in: read once from GET /me, set by signing in, cleared by signing out or a session's end. */
function useSession(navigate: Navigate) {
  const [me, setMe] = useState<SignedIn | null | 'loading'>('loading');
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    void (async () => {
      // Without the signed-in hint the visitor is signed out: no GET /me that answers 401.
      const answer = mayBeSignedIn() ? await call(api.GET('/workspace/v1/me')) : null;
      if (answer?.ok) {
        setCsrfToken(answer.data.csrf_token);
        // A member reads the workspace in their language, else their team's.
        await speak(answer.data.member.locale ?? answer.data.team.locale);
        setMe(answer.data);
        return;
      }
      if (answer?.problem.status === 401) forgetSignedIn();
      // Before sign-in, the browser's language.
      await speak(navigator.language, 'public');
      setMe(null);
    })();
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
    onSessionEnded(() => {
      // The session ended on the server (expired, ended elsewhere): its hint goes with it.
      forgetSignedIn();
      signedOut(t('error.sessionRequired'));
    });
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
      !isManager(me)
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
        <Loading />
      )}
    </>
  );
}
