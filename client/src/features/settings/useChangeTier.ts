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

/** `name` is who the confirmation toast names. */
export type ChangeTierInput = { userId: string; name: string } & ChangeSubscriptionBody;

/** "Ben Bartholomew is now a Member." */
export function tierChangedText(name: string, tier: ChangeSubscriptionBody['subscriptionTier']): string {
  const as = { free: 'on the Free tier', member: 'a Member', admin: 'an Admin' } as const;
  return `${name} is now ${as[tier]}.`;
}

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
    // The answer is the user after the change: confirm only what the server really did.
    onSuccess: (user, { name, subscriptionTier }) => {
      if (user.subscriptionTier === subscriptionTier)
        toast({ title: 'Tier changed', description: tierChangedText(name, subscriptionTier) });
    },
    onError: (error) =>
      toast({
        title: 'Failed to change tier',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
