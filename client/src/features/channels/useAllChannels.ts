import { useQuery } from '@tanstack/react-query';
import { allChannelsQuery, CHANNEL_POLL_MS } from './channel-queries';

/**
 * `GET /api/channels`: every channel for member tier and above (spec §6). Only asked for when
 * `enabled`, since free users would get their own channels again. A failure raises "Failed to
 * fetch all channels" (spec §8).
 */
export function useAllChannels(enabled: boolean) {
  return useQuery({
    ...allChannelsQuery,
    enabled,
    refetchInterval: enabled ? CHANNEL_POLL_MS : false,
  });
}
