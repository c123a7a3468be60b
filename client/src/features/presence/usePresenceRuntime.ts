import { useEffect, useEffectEvent } from 'react';
import { toast } from '../../ui/toast-store';
import { setBeforeAcceptCall } from '../calls/call-active';
import { useAuth } from '../auth/useAuth';
import { useSocketConnection } from '../realtime/RealtimeProvider';
import { idleTimeoutFor } from './idle-detector';
import { presenceStore } from './presence-store';
import { usePresence } from './usePresence';
import { useIdle } from './useIdle';
import { useLiveMembers } from './useLiveMembers';
import { usePokeAlerts } from './usePokeAlerts';
import { loadTalkMode } from './talk-mode';
import { useMediaSessionTalk } from './useMediaSessionTalk';
import { usePushToTalkKeys } from './usePushToTalkKeys';
import { useWakeLock } from './useWakeLock';

export type PresenceRuntimeOptions = {
  /** The selected channel; joined on the socket while open. */
  channelId: number | null;
  /** A one-to-one call is active: idle detection pauses (spec §4). */
  callActive?: boolean;
};

/**
 * Connects the presence store to the world: the socket (join/leave, talking, drops), the selected
 * channel, member and poke pushes, idle detection and the wake lock. Mount exactly once.
 */
export function usePresenceRuntime({
  channelId,
  callActive = false,
}: PresenceRuntimeOptions): void {
  const connection = useSocketConnection();
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const presence = usePresence();

  const selectCurrentChannel = useEffectEvent(() =>
    presenceStore.dispatch({ type: 'select_channel', channelId }),
  );

  useEffect(() => {
    const detachRunner = presenceStore.attach((effect) => {
      if (effect.kind === 'toast') toast(effect.toast);
      // The spec's channel messages carry the user id; the server acts for the socket's user anyway.
      else connection?.send({ ...effect.message, ...(userId ? { userId } : {}) });
    });
    const report = () =>
      presenceStore.dispatch({ type: 'socket', open: connection?.state === 'connected' });
    const unsubscribe = connection?.onState(report);
    report();
    selectCurrentChannel();
    return () => {
      unsubscribe?.();
      presenceStore.dispatch({ type: 'detach' });
      detachRunner();
    };
  }, [connection, userId]);

  useEffect(() => {
    presenceStore.dispatch({ type: 'select_channel', channelId });
  }, [channelId]);

  useLiveMembers(userId);
  usePokeAlerts();

  const idle = useIdle(
    presence.fullDuplexConnected && !callActive,
    idleTimeoutFor(user?.subscriptionTier),
  );
  useEffect(() => {
    presenceStore.dispatch({ type: 'idle', idle });
  }, [idle]);

  useWakeLock(presence.online);
  usePushToTalkKeys();
  useMediaSessionTalk(presence.online);
  useEffect(() => {
    presenceStore.dispatch({ type: 'set_talk_mode', mode: loadTalkMode() });
    // Spec §4: accepting a call while online in a channel first goes offline there.
    return setBeforeAcceptCall(() => {
      if (presenceStore.state.online) presenceStore.dispatch({ type: 'toggle_online' });
    });
  }, []);
}
