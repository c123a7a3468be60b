import { useQueryClient } from '@tanstack/react-query';
import type { ChannelMember } from '../../../../protocol/channels';
import { channelChangedSchema, memberUpdateSchema } from '../../../../protocol/sockets';
import { channelMembersKey, invalidateChannelQueries } from '../channels/channel-queries';
import { getCurrentChannelId, setCurrentChannelId } from '../channels/current-channel';
import { useSocketMessage } from '../realtime/useSocket';
import { upsertMember } from './member-list';
import { presenceStore } from './presence-store';

/**
 * Keeps member lists live between polls: `member_update` patches the cached list of its channel,
 * `channel_changed` refetches channel lists and that channel's members now. When the current
 * channel is deleted or the user is removed from it, the user goes offline and the selection clears.
 */
export function useLiveMembers(userId: string | null): void {
  const queryClient = useQueryClient();

  useSocketMessage('member_update', (message) => {
    const parsed = memberUpdateSchema.safeParse(message);
    if (!parsed.success) {
      console.error('Malformed member_update ignored', message);
      return;
    }
    const { channelId, member } = parsed.data;
    // No cached list yet: leave it to the first fetch rather than invent a one-member list.
    queryClient.setQueryData<ChannelMember[]>(channelMembersKey(channelId), (members) =>
      members ? upsertMember(members, member) : members,
    );
  });

  useSocketMessage('channel_changed', (message) => {
    const parsed = channelChangedSchema.safeParse(message);
    if (!parsed.success) {
      console.error('Malformed channel_changed ignored', message);
      return;
    }
    const { channelId, change, userId: about } = parsed.data;
    const gone = change === 'channel_deleted' || (change === 'member_removed' && about === userId);
    if (gone && getCurrentChannelId() === channelId) {
      presenceStore.dispatch({
        type: 'channel_gone',
        channelId,
        reason: change === 'channel_deleted' ? 'deleted' : 'removed',
      });
      setCurrentChannelId(null);
    }
    invalidateChannelQueries(queryClient, channelId).catch((error: unknown) =>
      console.error('Could not refresh channels after a change', error),
    );
  });
}
