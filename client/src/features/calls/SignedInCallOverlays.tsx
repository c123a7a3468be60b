import { Suspense, lazy } from 'react';
import { useAuth } from '../auth/useAuth';

// Call code loads once someone is signed in, keeping the landing page light.
const CallOverlayGate = lazy(() =>
  import('./CallOverlayGate').then((m) => ({ default: m.CallOverlayGate })),
);

/** The call screens for signed-in users (guests get no call signalling, spec §1). */
export function SignedInCallOverlays() {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return null;
  return (
    <Suspense fallback={null}>
      <CallOverlayGate />
    </Suspense>
  );
}
