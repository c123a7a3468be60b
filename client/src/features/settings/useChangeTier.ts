import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  changeSubscriptionResponseSchema,
  type ChangeSubscriptionBody,
} from '../../../../protocol/users';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { USERS_KEY } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';

export type ChangeTierInput = { userId: string } & ChangeSubscriptionBody;

/** Superadmin: `POST /api/users/{id}/subscription {subscriptionTier}`. */
export function useChangeTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, subscriptionTier }: ChangeTierInput) =>
      apiJson(
        changeSubscriptionResponseSchema,
        'POST',
        apiPath(API_PATHS.userSubscription, { id: userId }),
        { subscriptionTier },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }),
    onError: (error) =>
      toast({
        title: 'Failed to change tier',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
