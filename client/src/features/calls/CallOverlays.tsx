import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import type { IceServersResponse } from '../../../../protocol/calls';
import { useAuth } from '../auth/useAuth';
import { setCallHandler } from '../contacts/call-action';
import { useSocketConnection } from '../realtime/RealtimeProvider';
import { ActiveCallOverlay } from './ActiveCallOverlay';
import { CallController } from './call-controller';
import { IDLE } from './call-state';
import { IncomingCallOverlay } from './IncomingCallOverlay';
import { MinimizedCallPill } from './MinimizedCallPill';
import { PeerSession } from './peer-session';
import { playHangupTone, startRingtone } from './tones';
import { markMissedCallsSeen, useRefreshCallHistory } from './useCallHistory';

const IDLE_VIEW = { state: IDLE, muted: false };
const noSubscription = () => () => undefined;

async function fetchIceServers(): Promise<RTCIceServer[]> {
  const { iceServers } = await apiJson<IceServersResponse>('GET', '/api/calls/ice-servers');
  return iceServers;
}

/**
 * The calls feature on screen: listens for calls on the tab's `/ws` socket, takes the Contacts call
 * buttons, and shows the incoming, active and minimized call screens over whatever page is open.
 */
export function CallOverlays() {
  const connection = useSocketConnection();
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const historyChanged = useRefreshCallHistory();
  const controller = useMemo(
    () =>
      connection && userId
        ? new CallController({
            socket: connection,
            self: { id: userId },
            createPeer: (options) => new PeerSession(options),
            iceServers: fetchIceServers,
            notify: (notice) => toast(notice),
            tones: { startRingtone, playHangupTone },
            historyChanged,
          })
        : null,
    [connection, userId, historyChanged],
  );

  useEffect(() => {
    if (!controller) return;
    const detach = controller.attach();
    const removeHandler = setCallHandler((callee) => {
      markMissedCallsSeen(callee.id);
      controller.call(callee);
    });
    const onPageHide = () => controller.pageHidden();
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      removeHandler();
      detach();
    };
  }, [controller]);

  const view = useSyncExternalStore(
    controller?.subscribe ?? noSubscription,
    () => controller?.getSnapshot() ?? IDLE_VIEW,
  );
  if (!controller) return null;
  const { state, muted } = view;
  if (state.phase === 'idle') return null;
  if (state.phase === 'incoming') {
    return (
      <IncomingCallOverlay
        call={state.call}
        onAccept={() =>
          controller
            .accept()
            .catch((error: unknown) => console.error('Accepting the call failed', error))
        }
        onDecline={() => controller.decline()}
      />
    );
  }
  if (state.minimized)
    return (
      <MinimizedCallPill
        call={state.call}
        onRestore={() => controller.restore()}
        onEnd={() => controller.hangup()}
      />
    );
  return (
    <ActiveCallOverlay
      state={state}
      muted={muted}
      onToggleMute={() => controller.toggleMute()}
      onEnd={() => controller.hangup()}
      onMinimize={() => controller.minimize()}
    />
  );
}
