import type { QueryClient } from '@tanstack/react-query';
import { API_PATHS } from '../../../../protocol/api-paths';
import { conversationSchema, type Conversation } from '../../../../protocol/conversations';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { CONVERSATIONS_KEY } from './channel-queries';
import { getCurrentChannelId, setCurrentChannelId } from './current-channel';
import { serverMessage } from './server-message';

export const CONVERSATION_TEXTS = {
  talk: (name: string) => `Talk with ${name}`,
  failed: 'Could not start the conversation',
  back: 'Back',
  backLabel: 'Back to the channel',
  subtitle: 'Direct walkie-talkie',
} as const;

/** The group channel to go back to from a conversation (for this page's life). */
let returnTo: number | null = null;

export function conversationReturn(): number | null {
  return returnTo;
}

/**
 * Opens the one-to-one conversation with `userId` (made on first use, `POST /api/conversations`)
 * as the current channel, remembering the channel to go back to. A refusal (a block, an unknown
 * person) is told in a toast with the server's reason. Answers whether it opened.
 */
export async function openConversation(
  queryClient: QueryClient,
  userId: string,
): Promise<boolean> {
  let conversation: Conversation;
  try {
    conversation = await apiJson(conversationSchema, 'POST', API_PATHS.conversations, { userId });
  } catch (error) {
    toast({ title: CONVERSATION_TEXTS.failed, description: serverMessage(error), variant: 'destructive' });
    return false;
  }
  queryClient.setQueryData<Conversation[]>(CONVERSATIONS_KEY, (list = []) => [
    ...list.filter((c) => c.channel.id !== conversation.channel.id),
    conversation,
  ]);
  const current = getCurrentChannelId();
  const wasDirect = queryClient
    .getQueryData<Conversation[]>(CONVERSATIONS_KEY)
    ?.some((c) => c.channel.id === current && c.channel.id !== conversation.channel.id);
  if (!wasDirect && current !== conversation.channel.id) returnTo = current;
  setCurrentChannelId(conversation.channel.id);
  return true;
}
