import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { messageResponseSchema } from '../../../../protocol/responses';
import { transmissionsResponseSchema } from '../../../../protocol/transmissions';
import { apiJson, parsedQuery } from '../../lib/query-client';
import { transmissionsKey } from './transmission-keys';

export const FETCH_TRANSMISSIONS_ERROR = 'Failed to fetch transmissions';

export const transmissionsQuery = (channelId: number) =>
  queryOptions({
    queryKey: transmissionsKey(channelId),
    queryFn: parsedQuery(transmissionsResponseSchema, FETCH_TRANSMISSIONS_ERROR),
  });

/** A walkie-talkie channel's kept transmissions; refetched when the server says they changed. */
export function useTransmissions(channelId: number, enabled: boolean) {
  return useQuery({ ...transmissionsQuery(channelId), enabled });
}

/** `POST /api/channels/{id}/transmissions/read`: "N missed" starts again from zero. */
export function useMarkTransmissionsSeen(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiJson(
        messageResponseSchema,
        'POST',
        apiPath(API_PATHS.channelTransmissionsRead, { id: channelId }),
      ),
    onSuccess: () =>
      queryClient.setQueryData(transmissionsKey(channelId), (data) =>
        data ? { ...data, missed: 0 } : data,
      ),
  });
}

export const transmissionAudioUrl = (channelId: number, transmissionId: string) =>
  apiPath(API_PATHS.channelTransmissionAudio, { id: channelId, transmissionId });
