import { Suspense, lazy, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { SignInLanding } from '../features/auth/SignInLanding';
import { useAuth } from '../features/auth/useAuth';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { OfflineScreen } from '../features/pwa/OfflineScreen';
import { LoadingScreen } from '../features/shell/LoadingScreen';

// Signed-in screens load on demand, so the landing a visitor sees first stays small and fast.
const MainScreen = lazy(() => import('../features/main/MainScreen').then((m) => ({ default: m.MainScreen })));
const SettingsScreen = lazy(() =>
  import('../features/settings/SettingsScreen').then((m) => ({ default: m.SettingsScreen })),
);
const UpgradeScreen = lazy(() =>
  import('../features/upgrade/UpgradeScreen').then((m) => ({ default: m.UpgradeScreen })),
);

/** Spec §2 routes: the app's screens for signed-in users, the landing for everyone else. */
function SignedIn({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated, isOffline, retry } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (isOffline) return <OfflineScreen onRetry={retry} />;
  if (!isAuthenticated) return <SignInLanding />;
  return <Suspense fallback={<LoadingScreen />}>{children}</Suspense>;
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <SignedIn>
          <MainScreen />
        </SignedIn>
      </Route>
      <Route path="/settings">
        <SignedIn>
          <SettingsScreen />
        </SignedIn>
      </Route>
      <Route path="/upgrade">
        <SignedIn>
          <UpgradeScreen />
        </SignedIn>
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
