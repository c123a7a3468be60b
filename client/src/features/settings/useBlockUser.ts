import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { BLOCKED_USERS_KEY } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';

export type BlockInput = { userId: string; blocked: boolean };

/** `POST` blocks, `DELETE` unblocks `/api/users/{id}/block` (spec §6: any signed-in user). */
export function useBlockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, blocked }: BlockInput) =>
      apiRequest(blocked ? 'POST' : 'DELETE', apiPath(API_PATHS.userBlock, { id: userId })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: BLOCKED_USERS_KEY }),
    onError: (error, { blocked }) =>
      toast({
        title: blocked ? 'Failed to block user' : 'Failed to unblock user',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
