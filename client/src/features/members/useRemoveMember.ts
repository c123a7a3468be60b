import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { invalidateChannelQueries } from '../channels/channel-queries';

/** `DELETE /api/channels/{id}/members/{memberId}`; "Failed to remove member" on failure (spec §8). */
export function useRemoveMember(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) =>
      apiRequest('DELETE', apiPath(API_PATHS.channelMember, { id: channelId, memberId })),
    onSettled: () => invalidateChannelQueries(queryClient, channelId),
    onError: () => toast({ title: 'Failed to remove member', variant: 'destructive' }),
  });
}
