import type { QueryClient } from '@tanstack/react-query';
import type { ChannelMember } from '../../../../protocol/channels';
import { channelMembersKey, invalidateChannelQueries } from '../channels/channel-queries';
import type { ChannelSocket } from '../realtime/channel-socket';
import { upsertMember } from './member-list';
import type { PresenceStore } from './presence-store';

export type CurrentChannelSource = {
  get(): number | null;
  set(channelId: number | null): void;
  subscribe(listener: () => void): () => void;
};

/**
 * Keeps member lists live between polls, on every screen: `member_update` patches the cached list
 * of its channel, `channel_changed` refetches channel lists and that channel's members now. When
 * the current channel is deleted or the user is removed from it, the user goes offline and the
 * selection clears. Returns stop.
 */
export function applyLivePushes(
  socket: Pick<ChannelSocket, 'on'>,
  queryClient: QueryClient,
  userId: string,
  store: PresenceStore,
  channel: CurrentChannelSource,
): () => void {
  const offUpdate = socket.on('member_update', ({ channelId, member }) => {
    // No cached list yet: leave it to the first fetch rather than invent a one-member list.
    queryClient.setQueryData<ChannelMember[]>(channelMembersKey(channelId), (members) =>
      members ? upsertMember(members, member) : members,
    );
  });
  const offChanged = socket.on('channel_changed', ({ channelId, change, userId: about }) => {
    const gone = change === 'channel_deleted' || (change === 'member_removed' && about === userId);
    if (gone && channel.get() === channelId) {
      store.dispatch({
        type: 'channel_gone',
        channelId,
        reason: change === 'channel_deleted' ? 'deleted' : 'removed',
      });
      channel.set(null);
    }
    // Only the kept transmissions changed: the transmissions feature refreshes its own list.
    if (change === 'transmissions_changed') return;
    invalidateChannelQueries(queryClient, channelId).catch((error: unknown) =>
      console.error('Could not refresh channels after a change', error),
    );
  });
  return () => {
    offUpdate();
    offChanged();
  };
}
