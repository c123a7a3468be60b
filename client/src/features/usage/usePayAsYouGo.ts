import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import { PAY_AS_YOU_GO_ENABLE_URL, USAGE_KEY } from './usage-queries';

/** POST /api/usage/pay-as-you-go/enable, then the usage figures again. */
export function useEnablePayAsYouGo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', PAY_AS_YOU_GO_ENABLE_URL);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: USAGE_KEY }),
  });
}
