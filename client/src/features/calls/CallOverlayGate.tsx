import { Suspense, lazy } from 'react';
import { useCallView } from './useCallView';

// The call screens (full-screen dialogs) load with the first call, not with every screen.
const CallOverlays = lazy(() =>
  import('./CallOverlays').then((m) => ({ default: m.CallOverlays })),
);

/** Shows the call screens while a call rings, runs or is minimized. */
export function CallOverlayGate() {
  const { state } = useCallView();
  if (state.phase === 'idle') return null;
  return (
    <Suspense fallback={null}>
      <CallOverlays />
    </Suspense>
  );
}
