import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { channelSosSchema, type ChannelSosBody } from '../../../../protocol/sos';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { invalidateChannelQueries } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';
import { SOS_TEXTS } from './sos-texts';

/** `PUT /api/channels/{id}/sos` (channel admins): an SOS channel or not, and its SOS talk time. */
export function useSetChannelSos(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChannelSosBody) =>
      apiJson(channelSosSchema, 'PUT', apiPath(API_PATHS.channelSos, { id: channelId }), body),
    onSettled: () => invalidateChannelQueries(queryClient, channelId),
    onSuccess: (saved, body) =>
      toast({
        title: saved.sos ? SOS_TEXTS.settingsOn : SOS_TEXTS.settingsOff,
        description: saved.sos && body.sos ? SOS_TEXTS.settingsSaved(saved.sosSeconds) : undefined,
      }),
    onError: (error) =>
      toast({
        title: SOS_TEXTS.settingsFailed,
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
}
