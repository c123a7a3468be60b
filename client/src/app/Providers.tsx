import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { queryClient as appQueryClient } from '../lib/query-client';
import { LazyToaster } from '../ui/LazyToaster';

export type ProvidersProps = {
  children: ReactNode;
  /** Tests pass a fresh client; the app uses its single one. */
  queryClient?: QueryClient;
};

/**
 * App-wide context: server state and the toast stack (loaded with the first toast). Tooltip timing
 * is provided by the signed-in layouts, which are the screens that use tooltips.
 */
export function Providers({ children, queryClient = appQueryClient }: ProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <LazyToaster />
    </QueryClientProvider>
  );
}
