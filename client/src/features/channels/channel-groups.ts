import type { Channel } from '../../../../protocol/channels';

export type ChannelGroups = { createdByYou: Channel[]; memberOf: Channel[]; others: Channel[] };

/**
 * Spec §2 Channels dropdown: the user's channels split by who created them, then All Channels —
 * every other channel they may see. Each channel is listed once: one of mine is not repeated under
 * All Channels (an admin used to see every channel twice).
 */
export function groupChannels(
  mine: readonly Channel[],
  all: readonly Channel[],
  userId: string,
): ChannelGroups {
  const myIds = new Set(mine.map((channel) => channel.id));
  return {
    createdByYou: mine.filter((channel) => channel.createdBy === userId),
    memberOf: mine.filter((channel) => channel.createdBy !== userId),
    others: all.filter((channel) => !myIds.has(channel.id)),
  };
}
