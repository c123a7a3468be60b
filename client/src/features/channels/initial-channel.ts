import type { Channel } from '../../../../protocol/channels';
import { isAdminTier, type SubscriptionTier } from '../../../../protocol/user';

export type InitialChannelInput = {
  /** From the `channel` query parameter or the `invitedChannelId` session entry, if any. */
  requestedChannelId: number | null;
  /** The user's own channels. */
  channels: readonly Pick<Channel, 'id'>[];
  tier: SubscriptionTier;
  /** The channel the user had open last time in this browser (`last-channel.ts`). */
  lastChannelId?: number | null;
  /**
   * The user's direct conversations: one may be requested (a notification's tap) or reopened, but
   * is never the default choice.
   */
  conversations?: readonly Pick<Channel, 'id'>[];
};

/**
 * Spec §4 "Initial channel choice": a requested channel is used if the user belongs to it, or if the
 * list is empty (it may simply not include a just-accepted invite yet). Then the channel the user
 * had open last time, if they still belong to it (decision 016: "no automatic default" is about
 * the first choice, not every reload). Otherwise non-admins get their first channel and admins
 * none — they manage several channels and pick one themselves.
 */
export function chooseInitialChannel({
  requestedChannelId,
  channels,
  tier,
  lastChannelId = null,
  conversations = [],
}: InitialChannelInput): number | null {
  const mine = (id: number) =>
    channels.some((channel) => channel.id === id) ||
    conversations.some((conversation) => conversation.id === id);
  if (requestedChannelId !== null) {
    if (channels.length === 0 || mine(requestedChannelId)) return requestedChannelId;
  }
  if (lastChannelId !== null && mine(lastChannelId)) return lastChannelId;
  if (isAdminTier(tier)) return null;
  return channels[0]?.id ?? null;
}

/** A positive integer channel id from a query parameter or storage entry, else null. */
export function parseChannelId(value: string | null | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
