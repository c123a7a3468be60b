import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { queryClient as appQueryClient } from '../lib/query-client';
import { Toaster } from '../ui/Toaster';
import { TooltipProvider } from '../ui/Tooltip';

export type ProvidersProps = {
  children: ReactNode;
  /** Tests pass a fresh client; the app uses its single one. */
  queryClient?: QueryClient;
};

/** App-wide context: server state, tooltip timing and the toast stack. */
export function Providers({ children, queryClient = appQueryClient }: ProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        {children}
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
