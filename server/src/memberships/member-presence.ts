/** A member's live state in one channel, as the sockets know it (DESIGN §3 "Members and presence"). */
export interface MemberPresence {
  isOnline: boolean;
  isActiveInChannel: boolean;
  isTalking: boolean;
}

/**
 * Where member cards read presence from; `presence/`'s service provides it. Asynchronous and
 * batched because presence may live in Redis across instances.
 */
export interface PresenceReader {
  /** Users missing from the answer are offline. */
  presenceIn(
    channelId: number,
    userIds: readonly string[],
  ): Promise<ReadonlyMap<string, MemberPresence>>;
}

/**
 * Told that users gained a channel, after the membership is committed and before their card in it
 * is read: presence then reads their channels again when they go online or offline (decision 053).
 */
export interface ChannelGains {
  channelsGained(userIds: readonly string[]): Promise<void>;
}

export const OFFLINE: MemberPresence = Object.freeze({
  isOnline: false,
  isActiveInChannel: false,
  isTalking: false,
});
