import { useMutation, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../protocol/api-paths';
import {
  type Account,
  type ChangePasswordBody,
  type DeleteAccountBody,
} from '../../../../protocol/account';
import { apiRequest } from '../../lib/query-client';

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
