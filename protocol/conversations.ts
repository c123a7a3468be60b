import { z } from 'zod';
import { channelSchema } from './channels.js';
import { userSchema } from './user.js';
import { userIdSchema } from './users.js';

/**
 * Direct walkie-talkie conversations: a channel of kind 'direct' between two people (walkie-talkie,
 * transmissions kept, both plain members), never listed with the channels.
 */

/** `POST /api/conversations`: the person to talk with; the caller is the other end. */
export const startConversationBodySchema = z.object({ userId: userIdSchema });
export type StartConversationBody = z.infer<typeof startConversationBodySchema>;

/** One conversation as its member sees it: the channel, the other person, what they missed. */
export const conversationSchema = z.object({
  channel: channelSchema,
  /** The other person's public record (e-mail as the caller may see it). */
  user: userSchema,
  /** Transmissions from the other person the caller has not heard yet ("N missed"). */
  missed: z.number().int().nonnegative(),
});
export type Conversation = z.infer<typeof conversationSchema>;
export const conversationsResponseSchema = z.array(conversationSchema);

/** What a refused start says (the same texts the client shows). */
export const CONVERSATION_REFUSALS = {
  self: 'You cannot talk with yourself',
  unknown: 'User not found',
  /** The caller blocked them: they may undo it. */
  youBlocked: 'You blocked this person. Unblock them in Settings to talk with them.',
  /** They blocked the caller: said as calls say it, without naming the block. */
  unavailable: 'This person is not available to talk',
  /** A group-only action tried on a direct conversation. */
  groupOnly: 'Not possible in a direct conversation',
} as const;

/** The stored name of every direct conversation: the client shows the other person's name instead. */
export const DIRECT_CONVERSATION_NAME = 'Direct conversation';
