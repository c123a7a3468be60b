import { useQuery } from '@tanstack/react-query';
import type { ChannelMember } from '../../../../protocol/channels';
import { CHANNEL_POLL_MS, channelMembersKey } from './channel-queries';

/** A channel's members, polled every 5 s until the presence socket pushes updates in between. */
export function useChannelMembers(channelId: number | null) {
  return useQuery<ChannelMember[]>({
    queryKey: channelMembersKey(channelId ?? 0),
    enabled: channelId !== null,
    refetchInterval: CHANNEL_POLL_MS,
  });
}
