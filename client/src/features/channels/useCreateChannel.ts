import { API_PATHS } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { channelSchema } from '../../../../protocol/channels';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { invalidateChannelQueries } from './channel-queries';

/** `POST /api/channels {name}` with the name trimmed (spec §5); "Error / Failed to create channel" on failure. */
export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiJson(channelSchema, 'POST', API_PATHS.channels, { name: name.trim() }),
    onSuccess: () => invalidateChannelQueries(queryClient),
    onError: () =>
      toast({ title: 'Error', description: 'Failed to create channel', variant: 'destructive' }),
  });
}
