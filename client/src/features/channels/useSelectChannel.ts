import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Channel } from '../../../../protocol/channels';
import { apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { useAuth } from '../auth/useAuth';
import { invalidateChannelQueries } from './channel-queries';
import { setCurrentChannelId } from './current-channel';
import { serverMessage } from './server-message';

export type SelectChannelInput = { channel: Pick<Channel, 'id'>; isMember: boolean };

/**
 * Makes a channel the current one. A channel from All Channels the user is not in is joined first
 * (`POST /api/channels/{id}/members {userId: me}`, DESIGN §3: member tier may join one themselves),
 * since talking in a channel requires membership.
 */
export function useSelectChannel() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ channel, isMember }: SelectChannelInput) => {
      if (!isMember && user) {
        await apiRequest('POST', apiPath(API_PATHS.channelMembers, { id: channel.id }), {
          userId: user.id,
        });
        await invalidateChannelQueries(queryClient, channel.id);
      }
      return channel.id;
    },
    onSuccess: (channelId) => setCurrentChannelId(channelId),
    onError: (error) =>
      toast({
        title: 'Could not join channel',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
