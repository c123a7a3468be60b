import type { ChannelActivity } from '../../../protocol/channels.js';
import type { Database } from '../db/database.js';
import type { PresenceReader } from '../memberships/member-presence.js';
import { memberRows } from '../memberships/membership-store.js';
import type { TransmissionStore } from '../transmissions/transmission-store.js';
import { listChannelsOf } from './channel-store.js';

export interface ChannelActivityDeps {
  db: Database;
  presence: PresenceReader;
  transmissions: Pick<TransmissionStore, 'list'>;
}

/**
 * Each of the user's own channels with what they missed there (the channel bar's "N missed": blocks,
 * retention and what they heard live included) and how many other members hear it now. Only
 * channels the user belongs to: nobody learns about a channel they are not in.
 */
export async function channelActivityOf(
  deps: ChannelActivityDeps,
  userId: string,
): Promise<ChannelActivity[]> {
  const channels = await listChannelsOf(deps.db, userId);
  const activity: ChannelActivity[] = [];
  for (const channel of channels) {
    const others = (await memberRows(deps.db, channel.id))
      .map((row) => row.userId)
      .filter((id) => id !== userId);
    const presence = await deps.presence.presenceIn(channel.id, others);
    const online = others.filter((id) => presence.get(id)?.isActiveInChannel).length;
    const missed =
      channel.talkMode === 'walkie'
        ? (await deps.transmissions.list(channel.id, userId)).missed
        : 0;
    activity.push({ channelId: channel.id, missed, online });
  }
  return activity;
}
