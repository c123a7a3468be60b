import { useMutation, useQueryClient } from '@tanstack/react-query';
import { payAsYouGoResponseSchema } from '../../../../protocol/usage';
import { apiJson } from '../../lib/query-client';
import { PAY_AS_YOU_GO_URLS, USAGE_KEY } from './usage-queries';

/**
 * `POST /api/usage/pay-as-you-go/enable` or `.../disable` (spec §7), then the usage figures again.
 * Resolves with the state the server confirms.
 */
export function useSetPayAsYouGo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (enabled: boolean) => {
      const url = enabled ? PAY_AS_YOU_GO_URLS.enable : PAY_AS_YOU_GO_URLS.disable;
      const { payAsYouGoEnabled } = await apiJson(payAsYouGoResponseSchema, 'POST', url);
      return payAsYouGoEnabled;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: USAGE_KEY }),
  });
}
