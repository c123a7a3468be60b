import type { QueryClient } from '@tanstack/react-query';
import type { ChannelSocket } from '../realtime/channel-socket';
import { transmissionsKey } from './transmission-keys';

/**
 * Keeps a walkie-talkie channel's kept transmissions fresh on every screen: when the server says
 * they changed (`channel_changed` with `transmissions_changed`), "N missed" and the list refetch.
 * Returns stop.
 */
export function refreshTransmissionsOnPush(
  socket: Pick<ChannelSocket, 'on'>,
  queryClient: QueryClient,
): () => void {
  return socket.on('channel_changed', ({ channelId, change }) => {
    if (change !== 'transmissions_changed') return;
    queryClient
      .invalidateQueries({ queryKey: transmissionsKey(channelId) })
      .catch((error: unknown) => console.error('Could not refresh transmissions', error));
  });
}
