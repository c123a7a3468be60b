import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { channelTalkModeSchema, type ChannelTalkModeBody } from '../../../../protocol/talk-mode';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { invalidateChannelQueries } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';

/** `PUT /api/channels/{id}/talk-mode` (channel admins). */
export function useSetTalkMode(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChannelTalkModeBody) =>
      apiJson(
        channelTalkModeSchema,
        'PUT',
        apiPath(API_PATHS.channelTalkMode, { id: channelId }),
        body,
      ),
    onSettled: () => invalidateChannelQueries(queryClient, channelId),
    onSuccess: ({ talkMode }) =>
      toast({
        title: 'Talk mode saved',
        description:
          talkMode === 'walkie'
            ? 'Walkie-talkie: one person talks at a time'
            : 'Open: everyone can talk at once',
      }),
    onError: (error) =>
      toast({
        title: 'Failed to change talk mode',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
