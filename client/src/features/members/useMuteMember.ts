import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { channelMemberSchema } from '../../../../protocol/channels';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { invalidateChannelQueries } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';

export type MuteInput = { memberId: string; muted: boolean };

/** Admin mute: `POST` mutes, `DELETE` unmutes `/api/channels/{id}/members/{memberId}/mute`. */
export function useMuteMember(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, muted }: MuteInput) =>
      apiJson(
        channelMemberSchema,
        muted ? 'POST' : 'DELETE',
        apiPath(API_PATHS.channelMemberMute, { id: channelId, memberId }),
      ),
    onSettled: () => invalidateChannelQueries(queryClient, channelId),
    onError: (error, { muted }) =>
      toast({
        title: muted ? 'Failed to mute member' : 'Failed to unmute member',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
