import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { displayName, type User } from '../../../../protocol/user';
import { apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { CONTACTS_KEY } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';

export type ContactChange = { user: User; add: boolean };

/**
 * Adds someone to your contacts (`POST /api/contacts {email}`) or removes them
 * (`DELETE /api/contacts/{id}`, spec §7), then refreshes the list.
 */
export function useContactChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ user, add }: ContactChange) => {
      if (add) await apiRequest('POST', API_PATHS.contacts, { email: user.email });
      else await apiRequest('DELETE', apiPath(API_PATHS.contact, { id: user.id }));
    },
    onSuccess: (_result, { user, add }) =>
      toast({ title: add ? 'Contact added' : 'Contact removed', description: displayName(user) }),
    onError: (error, { add }) =>
      toast({
        title: add ? 'Could not add contact' : 'Could not remove contact',
        description: serverMessage(error),
        variant: 'destructive',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CONTACTS_KEY }),
  });
}
