import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { invalidateChannelQueries } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';
import { pickContactsOrExplain } from './pick-contacts-or-explain';
import { formatInviteSummary, InviteAbortedError, inviteAll } from './invite-summary';

/**
 * The channel bar's Invite (spec §5, §8): pick contacts on the device, add each to the channel by
 * its first e-mail, and report "Invited: n, Already members: n, Not found: n".
 */
export function useContactPickerInvite(channelId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      if (channelId === null) {
        toast({
          title: 'No channel selected',
          description: 'Please select a channel first before inviting members',
        });
        return;
      }
      const contacts = await pickContactsOrExplain('Invitation cancelled');
      if (!contacts) return;
      const summary = await inviteAll(contacts, (email) =>
        apiRequest('POST', apiPath(API_PATHS.channelMembers, { id: channelId }), { email }),
      );
      toast({ title: 'Invitations sent', description: formatInviteSummary(summary) });
    },
    onError: (error) =>
      toast({
        title: 'Invitation failed',
        description: error instanceof InviteAbortedError ? error.message : serverMessage(error),
        variant: 'destructive',
      }),
    onSettled: () =>
      channelId === null ? undefined : invalidateChannelQueries(queryClient, channelId),
  });
}
