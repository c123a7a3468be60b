import { useQuery } from '@tanstack/react-query';
import type { Channel } from '../../../../protocol/channels';
import { ALL_CHANNELS_KEY, CHANNEL_POLL_MS } from './channel-queries';

/**
 * `GET /api/channels`: every channel for member tier and above (spec §6). Only asked for when
 * `enabled`, since free users would get their own channels again.
 */
export function useAllChannels(enabled: boolean) {
  return useQuery<Channel[]>({
    queryKey: ALL_CHANNELS_KEY,
    enabled,
    refetchInterval: enabled ? CHANNEL_POLL_MS : false,
  });
}
