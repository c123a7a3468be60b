import { displayName, type User } from '../../../../protocol/user';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { callController } from '../calls/call-runtime';
import { isCallActive } from '../calls/call-state';
import { currentChannel } from '../channels/current-channel';
import { rememberLastChannel } from '../channels/last-channel';
import { holdControl } from '../presence/hold-control';
import { playPokeSound, vibrateForPoke } from '../presence/poke-alert';
import { idleWarningStore } from '../presence/idle-warning';
import { presenceStore } from '../presence/presence-store';
import { startPresenceRuntime } from '../presence/presence-runtime';
import { loadHeadsetTalk, loadTalkMode } from '../presence/talk-mode';
import type { WakeLockApi } from '../presence/wake-lock';
import { channelSocket } from '../realtime/channel-socket';
import { audioPolicyStore } from '../voice/audio-policy-store';
import { startChannelAudio } from '../voice/channel-audio';
import { microphoneErrorMessage } from '../voice/microphone-error';
import { playTone } from '../voice/tones';
import { startFloorRuntime, vibrateIfSupported } from '../floor/floor-runtime';
import { refreshTransmissionsOnPush } from '../transmissions/transmission-refresh';
import { floorView } from '../floor/floor-view';
import { voiceRoom } from '../voice/voice-room';
import { startVoiceRuntime } from '../voice/voice-runtime';
import { currentVoicePreferences } from '../voice-preferences/voice-preferences-query';
import { followPushTaps } from '../notifications/follow-push-taps';
import { closeConnectingToastWhenReady } from './connecting-toast';
import { tellAdminMutes } from '../members/admin-mute';
import { followServerSignOut } from './signed-out-elsewhere';
import { startLazily } from '../sos/start-lazily';

/** Keeps the presence store's "call active" in step with the call controller. */
function followCalls(): () => void {
  const report = () =>
    presenceStore.dispatch({ type: 'call', active: isCallActive(callController.getView().state) });
  const off = callController.subscribe(report);
  report();
  return off;
}

function listenPageHide(): () => void {
  const onPageHide = () => callController.pageHidden();
  window.addEventListener('pagehide', onPageHide);
  return () => window.removeEventListener('pagehide', onPageHide);
}

/**
 * Everything a signed-in tab runs above the routes, in one place and in one order: the `/ws`
 * socket, presence, the channel's voice and audio policy, and calls. Screens come and go on top;
 * none of this depends on which one is open, so ONLINE, talking and hearing carry on through
 * Settings and Upgrade. Returns the function that ends it all (sign-out or another user).
 */
export function startSignedInSession(user: User): () => void {
  presenceStore.dispatch({ type: 'set_talk_mode', mode: loadTalkMode() });
  presenceStore.dispatch({ type: 'set_headset_talk', on: loadHeadsetTalk() });
  channelSocket.open();
  const presenceToasts = closeConnectingToastWhenReady(toast, voiceRoom);
  const stops = [
    startPresenceRuntime({
      store: presenceStore,
      hold: holdControl,
      socket: channelSocket,
      channel: currentChannel,
      user,
      queryClient,
      toast: presenceToasts.toast,
      page: { window, document },
      // Absent in older browsers and insecure contexts even though the DOM types declare it.
      wakeLock: (navigator as Navigator & { wakeLock?: WakeLockApi }).wakeLock,
      mediaSession: 'mediaSession' in navigator ? navigator.mediaSession : undefined,
      pokes: { sound: playPokeSound, vibrate: vibrateForPoke },
      idleWarning: idleWarningStore,
    }),
    startChannelAudio({
      queryClient,
      presence: presenceStore,
      policy: audioPolicyStore,
      selfUserId: user.id,
    }),
    startVoiceRuntime({
      presence: presenceStore,
      room: voiceRoom,
      user: { id: user.id, name: displayName(user) },
      setChannelMuted: audioPolicyStore.setChannelMuted,
      toast,
      playTone,
      microphoneErrorMessage,
      rogerBeep: () => currentVoicePreferences(queryClient).rogerBeep,
    }),
    startFloorRuntime({
      socket: channelSocket,
      presence: presenceStore,
      channel: currentChannel,
      queryClient,
      userId: user.id,
      view: floorView,
      playTone,
      vibrate: vibrateIfSupported,
      toast,
    }),
    refreshTransmissionsOnPush(channelSocket, queryClient),
    tellAdminMutes(channelSocket, user.id, toast),
    callController.attach(user.id),
    followCalls(),
    rememberLastChannel(user.id, currentChannel),
    listenPageHide(),
    followServerSignOut(channelSocket, queryClient),
    followPushTaps(),
    // SOS alerts and their full-volume voice: loaded just after, the alerts are fetched on connect.
    startLazily(() => import('../sos/sos-session').then((m) => m.startSos(user.id))),
    presenceToasts.stop,
  ];
  return () => {
    // Presence leaves the channel while the socket is still open; then everything else stops.
    for (const stop of stops) stop();
    channelSocket.close();
  };
}
