import type { ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { SignInLanding } from '../features/auth/SignInLanding';
import { useAuth } from '../features/auth/useAuth';
import { MainScreen } from '../features/main/MainScreen';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { OfflineScreen } from '../features/pwa/OfflineScreen';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { LoadingScreen } from '../features/shell/LoadingScreen';
import { UpgradeScreen } from '../features/upgrade/UpgradeScreen';

/** Spec §2 routes: the app's screens for signed-in users, the landing for everyone else. */
function SignedIn({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated, isOffline, retry } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (isOffline) return <OfflineScreen onRetry={retry} />;
  return isAuthenticated ? children : <SignInLanding />;
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
