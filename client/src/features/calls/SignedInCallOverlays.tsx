import { Suspense, lazy } from 'react';
import { useAuth } from '../auth/useAuth';

// Call screens and WebRTC code load once someone is signed in, keeping the landing page light.
const CallOverlays = lazy(() => import('./CallOverlays').then((m) => ({ default: m.CallOverlays })));

/** The call screens for signed-in users (guests get no call signalling, spec §1). */
export function SignedInCallOverlays() {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return null;
  return (
    <Suspense fallback={null}>
      <CallOverlays />
    </Suspense>
  );
}
