import { API_PATHS } from '../../../../protocol/api-paths';
import { iceServersResponseSchema } from '../../../../protocol/calls';
import { apiJson, queryClient } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { presenceStore } from '../presence/presence-store';
import { channelSocket } from '../realtime/channel-socket';
import { microphoneErrorMessage } from '../voice/microphone-error';
import { CallController } from './call-controller';
import { lazyPeer } from './lazy-peer';
import { playHangupTone, startRingtone } from './tones';
import { CALL_HISTORY_QUERY_KEY } from './useCallHistory';

async function fetchIceServers(): Promise<RTCIceServer[]> {
  const { iceServers } = await apiJson(iceServersResponseSchema, 'GET', API_PATHS.callIceServers);
  return iceServers;
}

/**
 * The tab's one call controller on the shared `/ws` socket. The signed-in session attaches it
 * (`attach(userId)`); the call screens and the Contacts call buttons use it.
 */
export const callController = new CallController({
  socket: channelSocket,
  createPeer: (options) =>
    lazyPeer(() => import('./peer-session').then(({ PeerSession }) => new PeerSession(options))),
  iceServers: fetchIceServers,
  notify: (notice) => toast(notice),
  tones: { startRingtone, playHangupTone },
  historyChanged: () => {
    queryClient.invalidateQueries({ queryKey: CALL_HISTORY_QUERY_KEY }).catch(() => undefined);
  },
  leaveChannelVoice: () => presenceStore.dispatch({ type: 'go_offline' }),
  microphoneErrorMessage,
});
