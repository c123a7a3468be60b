import { useQuery } from '@tanstack/react-query';
import { usageSchema } from '../../../../protocol/usage';
import { parsedQuery } from '../../lib/query-client';
import { USAGE_KEY, USAGE_REFETCH_MS } from './usage-queries';

/** The signed-in user's usage this month (spec §3 "Usage"), kept fresh every minute. */
export function useUsage(enabled = true) {
  return useQuery({
    queryKey: USAGE_KEY,
    queryFn: parsedQuery(usageSchema),
    refetchInterval: USAGE_REFETCH_MS,
    enabled,
  });
}
