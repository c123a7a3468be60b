import { useQuery } from '@tanstack/react-query';
import { CHANNEL_POLL_MS, channelMembersQuery } from './channel-queries';

/**
 * A channel's members, polled every 5 s; the socket pushes updates in between. A failure raises
 * "Failed to fetch members" (spec §8).
 */
export function useChannelMembers(channelId: number | null) {
  return useQuery({
    ...channelMembersQuery(channelId ?? 0),
    enabled: channelId !== null,
    refetchInterval: CHANNEL_POLL_MS,
  });
}
