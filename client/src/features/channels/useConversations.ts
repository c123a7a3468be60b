import { useQuery } from '@tanstack/react-query';
import type { Conversation } from '../../../../protocol/conversations';
import { useAuth } from '../auth/useAuth';
import { CHANNEL_POLL_MS, conversationsQuery } from './channel-queries';

/**
 * My direct conversations (`GET /api/conversations`) with the other person and "N missed" each,
 * polled like the channel lists.
 */
export function useConversations() {
  const { user } = useAuth();
  return useQuery({
    ...conversationsQuery,
    enabled: user !== null,
    refetchInterval: CHANNEL_POLL_MS,
  });
}

/** The direct conversation that is channel `channelId`, if it is one of mine. */
export function useConversation(channelId: number | null): Conversation | undefined {
  const conversations = useConversations();
  if (channelId === null) return undefined;
  return conversations.data?.find((conversation) => conversation.channel.id === channelId);
}
