import type { Channel } from '../../../../protocol/channels';
import { useAuth } from '../auth/useAuth';
import { useAllChannels } from './useAllChannels';
import { useConversations } from './useConversations';
import { useUserChannels } from './useUserChannels';

/**
 * A channel's record from the lists already polled (the user's own, else All Channels, else my
 * direct conversations).
 */
export function useChannel(channelId: number | null): Channel | undefined {
  const { user } = useAuth();
  const mine = useUserChannels();
  const all = useAllChannels(user !== null && user.subscriptionTier !== 'free');
  const direct = useConversations();
  if (channelId === null) return undefined;
  return (
    mine.data?.find((channel) => channel.id === channelId) ??
    all.data?.find((channel) => channel.id === channelId) ??
    direct.data?.find((conversation) => conversation.channel.id === channelId)?.channel
  );
}
