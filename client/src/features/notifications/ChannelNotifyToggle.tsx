import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, BellOff } from 'lucide-react';
import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { channelNotifySchema, type ChannelNotify } from '../../../../protocol/push';
import { apiJson, parsedQuery } from '../../lib/query-client';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast-store';
import { serverMessage } from '../channels/server-message';

/**
 * A channel's (or conversation's) "Notify me": whether its events reach this member's devices
 * while Chirp is closed. A pressed toggle button in the channel's own actions.
 */
export function ChannelNotifyToggle({ channelId }: { channelId: number }) {
  const queryClient = useQueryClient();
  const path = apiPath(API_PATHS.channelNotify, { id: channelId });
  const key = [path];
  const current = useQuery({ queryKey: key, queryFn: parsedQuery(channelNotifySchema) });
  const save = useMutation({
    mutationFn: (next: ChannelNotify) => apiJson(channelNotifySchema, 'PUT', path, next),
    onMutate: async (next) => {
      // A read still on its way would put back what the button showed before.
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData(key, next);
    },
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: key });
      toast({ title: 'Could not change Notify me', description: serverMessage(error), variant: 'destructive' });
    },
  });
  if (!current.data) return null;
  const on = current.data.notify;
  return (
    <Button
      size="sm"
      variant="outline"
      aria-pressed={on}
      disabled={save.isPending}
      onClick={() => save.mutate({ notify: !on })}
      title={on ? 'Notifications from this channel are on' : 'Notifications from this channel are off'}
    >
      {on ? <Bell aria-hidden="true" /> : <BellOff aria-hidden="true" />}
      Notify me
    </Button>
  );
}
