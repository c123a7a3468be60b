import { ActiveCallOverlay } from './ActiveCallOverlay';
import { callController } from './call-runtime';
import { IncomingCallOverlay } from './IncomingCallOverlay';
import { MinimizedCallPill } from './MinimizedCallPill';
import { useCallView } from './useCallView';

/** The incoming, active and minimized call screens over whatever page is open. */
export function CallOverlays() {
  const { state, muted } = useCallView();
  if (state.phase === 'idle') return null;
  if (state.phase === 'incoming') {
    return (
      <IncomingCallOverlay
        call={state.call}
        onAccept={() => callController.accept()}
        onDecline={callController.decline}
      />
    );
  }
  if (state.minimized)
    return (
      <MinimizedCallPill
        state={state}
        onRestore={callController.restore}
        onEnd={callController.hangUp}
      />
    );
  return (
    <ActiveCallOverlay
      state={state}
      muted={muted}
      onToggleMute={callController.toggleMute}
      onEnd={callController.hangUp}
      onMinimize={callController.minimize}
    />
  );
}
