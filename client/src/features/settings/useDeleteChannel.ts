import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { invalidateChannelQueries } from '../channels/channel-queries';
import { getCurrentChannelId, setCurrentChannelId } from '../channels/current-channel';

/** `DELETE /api/channels/{id}`; "Failed to delete channel. Please try again." on failure (spec §8). */
export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channelId: number) =>
      apiRequest('DELETE', apiPath(API_PATHS.channel, { id: channelId })),
    onSuccess: (_response, channelId) => {
      // The deleted channel cannot stay the current one.
      if (getCurrentChannelId() === channelId) setCurrentChannelId(null);
      toast({ title: 'Channel deleted' });
    },
    onSettled: () => invalidateChannelQueries(queryClient),
    onError: () =>
      toast({ title: 'Failed to delete channel. Please try again.', variant: 'destructive' }),
  });
}
