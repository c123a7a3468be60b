import type { Channel } from '../../../../protocol/channels';

export type ChannelGroups = { createdByYou: Channel[]; memberOf: Channel[] };

/** Spec §2 Channels dropdown: the user's channels split by who created them. */
export function groupUserChannels(channels: readonly Channel[], userId: string): ChannelGroups {
  return {
    createdByYou: channels.filter((channel) => channel.createdBy === userId),
    memberOf: channels.filter((channel) => channel.createdBy !== userId),
  };
}
