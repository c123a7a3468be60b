import { useEffect } from 'react';
import type { Usage } from '../../../../protocol/usage';
import { toast } from '../../ui/toast-store';
import { markAutoEnabled, shouldAutoEnable, wasAutoEnabled } from './auto-pay-as-you-go';
import { useSetPayAsYouGo } from './usePayAsYouGo';

const storage = (): Storage | undefined =>
  typeof localStorage === 'undefined' ? undefined : localStorage;

/** Turns pay-as-you-go on once at the high warning level (spec §4), with a toast saying so. */
export function useAutoPayAsYouGo(usage: Usage | undefined, userId: string | null): void {
  const { mutate } = useSetPayAsYouGo();
  useEffect(() => {
    if (!usage || !userId) return;
    if (!shouldAutoEnable(usage, wasAutoEnabled(storage(), userId))) return;
    // Marked before the request so a slow answer and the next refetch cannot fire it twice.
    markAutoEnabled(storage(), userId);
    mutate(true, {
      onSuccess: () =>
        toast({
          title: 'Pay-as-you-go enabled',
          description:
            "You've used most of your free minutes, so pay-as-you-go is now on and voice keeps working past the allowance.",
        }),
      onError: (error) => console.error('Could not enable pay-as-you-go automatically', error),
    });
  }, [usage, userId, mutate]);
}
