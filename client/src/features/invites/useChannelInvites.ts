import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPath, API_PATHS } from '../../../../protocol/api-paths';
import { channelInvitesResponseSchema } from '../../../../protocol/invites';
import { apiRequest, parsedQuery } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { serverMessage } from '../channels/server-message';

const invitesKey = (channelId: number) => [apiPath(API_PATHS.channelInvites, { id: channelId })];

/** A channel admin's view of the channel's live invite links (never their tokens). */
export function useChannelInvites(channelId: number, enabled: boolean) {
  return useQuery({
    queryKey: invitesKey(channelId),
    queryFn: parsedQuery(channelInvitesResponseSchema),
    enabled,
    staleTime: 0,
  });
}

/** `DELETE /api/channels/{id}/invites/{inviteId}`: the link stops working at once. */
export function useRevokeInvite(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: number) =>
      apiRequest('DELETE', apiPath(API_PATHS.channelInvite, { id: channelId, inviteId })),
    onSuccess: () => toast({ title: 'Invite link revoked' }),
    onError: (error) =>
      toast({ title: 'Could not revoke the link', description: serverMessage(error), variant: 'destructive' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitesKey(channelId) }),
  });
}
