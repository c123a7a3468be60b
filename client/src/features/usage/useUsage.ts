import { useQuery } from '@tanstack/react-query';
import type { Usage } from '../../../../protocol/usage';
import { USAGE_KEY, USAGE_REFETCH_MS } from './usage-queries';

/** The signed-in user's usage this month (spec §3 "Usage"), kept fresh every minute. */
export function useUsage(enabled = true) {
  return useQuery<Usage>({ queryKey: USAGE_KEY, refetchInterval: USAGE_REFETCH_MS, enabled });
}
