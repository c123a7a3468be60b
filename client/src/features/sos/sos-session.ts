import { queryClient } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { vibrateIfSupported } from '../floor/floor-runtime';
import { presenceStore } from '../presence/presence-store';
import { channelSocket } from '../realtime/channel-socket';
import { audioPolicyStore } from '../voice/audio-policy-store';
import { playTone } from '../voice/tones';
import { SOS_ALARM_TONE, SOS_VIBRATION } from './sos-alarm';
import { sosAlerts } from './sos-alerts-store';
import { startSosRuntime } from './sos-runtime';
import { sosSending } from './sos-sending';
import { mountSosOverlays } from './mount-sos-overlays';

/**
 * The signed-in tab's SOS: the runtime on the real socket, stores and speakers, and its screens
 * (countdown, alerts, banners) in their own root above every route, mounted while signed in.
 * Returns stop.
 */
export function startSos(userId: string): () => void {
  const unmount = mountSosOverlays();
  const stop = startSosRuntime({
    socket: channelSocket,
    queryClient,
    userId,
    channel: {
      get: () => presenceStore.state.channelId,
      subscribe: (listener) => presenceStore.subscribe(listener),
    },
    store: sosAlerts,
    setSosUserIds: audioPolicyStore.setSosUserIds,
    toast,
    alarm: () => {
      playTone(SOS_ALARM_TONE);
      vibrateIfSupported([...SOS_VIBRATION]);
    },
  });
  return () => {
    // Signed out: no countdown, open microphone or location updates carry on for the next user.
    sosSending.stop();
    stop();
    unmount();
  };
}
