import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { BLOCKED_USERS_KEY } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';

/** `name` is who the confirmation toast names. */
export type BlockInput = { userId: string; blocked: boolean; name: string };

export const BLOCK_TEXTS = {
  blocked: 'They cannot call you or add you to channels, and you will not hear them.',
  unblocked: 'They can call you and add you to channels again.',
} as const;

/** `POST` blocks, `DELETE` unblocks `/api/users/{id}/block` (spec §6: any signed-in user). */
export function useBlockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, blocked }: BlockInput) =>
      apiRequest(blocked ? 'POST' : 'DELETE', apiPath(API_PATHS.userBlock, { id: userId })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: BLOCKED_USERS_KEY }),
    onSuccess: (_, { blocked, name }) =>
      toast(
        blocked
          ? { title: `${name} blocked`, description: BLOCK_TEXTS.blocked }
          : { title: `${name} unblocked`, description: BLOCK_TEXTS.unblocked },
      ),
    onError: (error, { blocked }) =>
      toast({
        title: blocked ? 'Failed to block user' : 'Failed to unblock user',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
