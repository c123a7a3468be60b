import type { ChannelMember } from '../../../protocol/channels.js';

/**
 * Changes REST makes that sockets must push (DESIGN §3). Published after the change is committed.
 * `channel_deleted` carries the former members because the rows are gone by then.
 */
export type ChannelEvent =
  | { type: 'member_added'; channelId: number; member: ChannelMember }
  | { type: 'member_removed'; channelId: number; userId: string }
  /** `by`: the admin's user id (the signed-in user the server acted for). */
  | { type: 'member_muted'; channelId: number; member: ChannelMember; by: string }
  | { type: 'channel_deleted'; channelId: number; memberIds: string[] }
  | { type: 'talk_mode_changed'; channelId: number }
  | { type: 'transmissions_changed'; channelId: number }
  /** `memberIds`: every member's channel list shows the SOS button or not (decision 050). */
  | { type: 'sos_changed'; channelId: number; memberIds: string[] }
  | { type: 'poke'; channelId: number; from: string; to: string };

export interface ChannelEvents {
  /** Must not throw or block the request: delivery is best effort and asynchronous. */
  publish(event: ChannelEvent): void;
}
