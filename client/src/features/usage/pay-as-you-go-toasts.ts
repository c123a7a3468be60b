import { toast } from '../../ui/toast-store';

/** What the user is told after asking to turn pay-as-you-go on or off. */
export const payAsYouGoToasts = (enabled: boolean) => ({
  onSuccess: () =>
    toast(
      enabled
        ? { title: 'Pay-as-you-go enabled' }
        : {
            title: 'Pay-as-you-go disabled',
            description: 'Voice pauses once the free minutes are used up, until next month.',
          },
    ),
  onError: () =>
    toast({
      title: enabled ? 'Could not enable pay-as-you-go' : 'Could not disable pay-as-you-go',
      description: 'Please try again.',
      variant: 'destructive',
    }),
});
