import { lazy, Suspense } from 'preact/compat';
import { isManager, type SignedIn } from './api.ts';
import { t } from './i18n.ts';
import type { Route } from './router.ts';
import { Shell } from './shell.tsx';
import { Loading } from './ui/index.ts';

/**
 * The signed-in workspace: the shell and the team's screens. It is its own chunk (a visitor
 * who signs in loads it then), and each screen is one more, loaded when first opened
 * (preact/compat's lazy and Suspense), so no page ships the code of the others.
 */
const HomeScreen = lazy(() => import('./features/home/index.ts').then((m) => ({ default: m.HomeScreen })));
const MembersScreen = lazy(() =>
  import('./features/access/members/members.tsx').then((m) => ({ default: m.MembersScreen })),
);
const IntegrationsScreen = lazy(() =>
  import('./features/access/api-keys/integrations.tsx').then((m) => ({ default: m.IntegrationsScreen })),
);
const WebhooksScreen = lazy(() =>
  import('./features/hooks/webhooks.tsx').then((m) => ({ default: m.WebhooksScreen })),
);
const ActivityScreen = lazy(() =>
  import('./features/events/activity.tsx').then((m) => ({ default: m.ActivityScreen })),
);
const AutomationsScreen = lazy(() =>
  import('./features/automation/automations.tsx').then((m) => ({ default: m.AutomationsScreen })),
);
const SettingsScreen = lazy(() =>
  import('./features/access/settings/settings.tsx').then((m) => ({ default: m.SettingsScreen })),
);
const AccountScreen = lazy(() =>
  import('./features/access/account/account.tsx').then((m) => ({ default: m.AccountScreen })),
);
const OnboardingsScreen = lazy(() =>
  import('./features/onboardings/onboardings.tsx').then((m) => ({ default: m.OnboardingsScreen })),
);
const OnboardingScreen = lazy(() =>
  import('./features/onboardings/onboarding.tsx').then((m) => ({ default: m.OnboardingScreen })),
);
const ClientsScreen = lazy(() =>
  import('./features/clients/clients.tsx').then((m) => ({ default: m.ClientsScreen })),
);
const ClientScreen = lazy(() =>
  import('./features/clients/client.tsx').then((m) => ({ default: m.ClientScreen })),
);
const TemplatesScreen = lazy(() =>
  import('./features/templates/templates.tsx').then((m) => ({ default: m.TemplatesScreen })),
);
const TemplateBuilderScreen = lazy(() =>
  import('./features/templates/builder/template-builder.tsx').then((m) => ({
    default: m.TemplateBuilderScreen,
  })),
);

type Navigate = (path: string, options?: { replace?: boolean }) => void;

export default function TeamApp({
  me,
  route,
  navigate,
  signedOut,
}: {
  me: SignedIn;
  route: Route;
  navigate: Navigate;
  signedOut: (message: string) => void;
}) {
  return (
    <Shell me={me} route={route} navigate={navigate} onSignedOut={signedOut} canManage={isManager(me)}>
      <Suspense fallback={<Loading />}>
        <TeamScreen route={route} me={me} navigate={navigate} signedOut={signedOut} />
      </Suspense>
    </Shell>
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
  return route.screen === 'home' ? (
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
    <SettingsScreen canEdit={isManager(me)} stripeBack={route.payments} navigate={navigate} />
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
    <Loading />
  );
}
