import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '../../../../protocol/api-paths';
import {
  changeNameResponseSchema,
  type Account,
  type ChangeNameBody,
  type ChangePasswordBody,
  type DeleteAccountBody,
} from '../../../../protocol/account';
import { displayName } from '../../../../protocol/user';
import { apiJson, apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { AUTH_USER_QUERY_KEY } from '../auth/useAuth';
import { ALL_CHANNELS_KEY, CONTACTS_KEY, USERS_KEY } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';

/** The signed-in user's own account: password sign-in or not, and what deleting it takes along. */
export function useAccount() {
  return useQuery<Account>({ queryKey: [API_PATHS.account] });
}

export function useChangePassword() {
  return useMutation({ mutationFn: (body: ChangePasswordBody) => apiRequest('POST', API_PATHS.accountPassword, body) });
}

/** Deletes the account; the page then starts afresh signed out (a full load, no stale app state). */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: DeleteAccountBody) => apiRequest('DELETE', API_PATHS.account, body),
    onSuccess: () => window.location.assign('/'),
  });
}

/**
 * `PUT /api/account/name`: the user's own first and last name. The screens that show it (the user,
 * member lists, people lists) read it again at once; other people see it at their next poll.
 */
export function useChangeName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeNameBody) => apiJson(changeNameResponseSchema, 'PUT', API_PATHS.accountName, body),
    onSuccess: async (user) => {
      queryClient.setQueryData(AUTH_USER_QUERY_KEY, user);
      toast({ title: 'Name changed', description: `People now see you as ${displayName(user)}.` });
      // Channel member lists live under the channels key, so this refreshes them too.
      await Promise.all(
        [ALL_CHANNELS_KEY, USERS_KEY, CONTACTS_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
    onError: (error) =>
      toast({ title: 'Failed to change name', description: serverMessage(error), variant: 'destructive' }),
  });
}
