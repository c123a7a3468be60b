import type { ChannelSocket } from '../realtime/channel-socket';
import type { Toast } from './online-state';
import type { PresenceStore } from './presence-store';
import type { CurrentChannelSource } from './live-members';

/**
 * Connects the presence store to the socket and the current channel: the reducer's messages go
 * out (with the user id the spec's channel messages carry; the server acts for the socket's user
 * anyway), its toasts show, and socket state and channel selection come in. Stopping leaves the
 * channel quietly. Returns stop.
 */
export function connectPresence(
  store: PresenceStore,
  socket: Pick<ChannelSocket, 'send' | 'onState' | 'state'>,
  channel: Pick<CurrentChannelSource, 'get' | 'subscribe'>,
  userId: string,
  toast: (toast: Toast) => void,
): () => void {
  const detachRunner = store.attach((effect) => {
    if (effect.kind === 'toast') toast(effect.toast);
    else socket.send({ ...effect.message, userId });
  });
  const reportSocket = () => store.dispatch({ type: 'socket', open: socket.state === 'connected' });
  const reportChannel = () => store.dispatch({ type: 'select_channel', channelId: channel.get() });
  const offs = [socket.onState(reportSocket), channel.subscribe(reportChannel)];
  reportSocket();
  reportChannel();
  return () => {
    offs.forEach((off) => off());
    store.dispatch({ type: 'detach' });
    detachRunner();
  };
}
