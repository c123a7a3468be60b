import type { ChannelSocket } from '../realtime/channel-socket';
import type { Toast } from './online-state';
import type { PresenceStore } from './presence-store';
import type { CurrentChannelSource } from './live-members';

/** Whether the user still belongs to a channel, asked of the server (decision 021). */
export type MembershipCheck = (channelId: number) => Promise<boolean>;

/**
 * Connects the presence store to the socket and the current channel: the reducer's messages go
 * out (with the user id the spec's channel messages carry; the server acts for the socket's user
 * anyway), its toasts show, and socket state and channel selection come in. After a lost
 * connection, the server is asked whether the user is still a member before they go back ONLINE
 * (decision 021). Stopping leaves the channel quietly. Returns stop.
 */
export function connectPresence(
  store: PresenceStore,
  socket: Pick<ChannelSocket, 'send' | 'onState' | 'state'>,
  channel: Pick<CurrentChannelSource, 'get' | 'subscribe'>,
  userId: string,
  toast: (toast: Toast) => void,
  isMember: MembershipCheck,
): () => void {
  let stopped = false;
  const checkRejoin = (channelId: number) => {
    isMember(channelId)
      .catch((error: unknown) => {
        console.error('Could not check the channel before rejoining', error);
        return false;
      })
      .then((member) => {
        if (!stopped) store.dispatch({ type: 'rejoin', channelId, member });
      })
      .catch((error: unknown) => console.error('Rejoining failed', error));
  };
  const detachRunner = store.attach((effect) => {
    if (effect.kind === 'toast') toast(effect.toast);
    else if (effect.kind === 'check_rejoin') checkRejoin(effect.channelId);
    else if (effect.message.type === 'floor_request' || effect.message.type === 'floor_release')
      socket.send(effect.message);
    else socket.send({ ...effect.message, userId });
  });
  const reportSocket = () => store.dispatch({ type: 'socket', open: socket.state === 'connected' });
  const reportChannel = () => store.dispatch({ type: 'select_channel', channelId: channel.get() });
  const offs = [socket.onState(reportSocket), channel.subscribe(reportChannel)];
  reportSocket();
  reportChannel();
  return () => {
    stopped = true;
    offs.forEach((off) => off());
    store.dispatch({ type: 'detach' });
    detachRunner();
  };
}
