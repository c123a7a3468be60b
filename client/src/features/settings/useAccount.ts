import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ACCOUNT_PASSWORD_PATH,
  ACCOUNT_PATH,
  type Account,
  type ChangePasswordBody,
  type DeleteAccountBody,
} from '../../../../protocol/account';
import { apiRequest } from '../../lib/query-client';

/** The signed-in user's own account: password sign-in or not, and what deleting it takes along. */
export function useAccount() {
  return useQuery<Account>({ queryKey: [ACCOUNT_PATH] });
}

export function useChangePassword() {
  return useMutation({ mutationFn: (body: ChangePasswordBody) => apiRequest('POST', ACCOUNT_PASSWORD_PATH, body) });
}

/** Deletes the account; the page then starts afresh signed out (a full load, no stale app state). */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: DeleteAccountBody) => apiRequest('DELETE', ACCOUNT_PATH, body),
    onSuccess: () => window.location.assign('/'),
  });
}
