import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { channelMemberSchema } from '../../../../protocol/channels';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { invalidateChannelQueries } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';

/**
 * `POST /api/channels/{id}/members {userId}`. A refusal (e.g. the user blocked you, 403) is shown with
 * the server's reason so the admin knows why.
 */
export function useAddMember(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiJson(channelMemberSchema, 'POST', apiPath(API_PATHS.channelMembers, { id: channelId }), {
        userId,
      }),
    onSettled: () => invalidateChannelQueries(queryClient, channelId),
    onError: (error) =>
      toast({
        title: 'Failed to add member',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
