import type { ChannelMember } from '../../../protocol/channels.js';
import { displayName } from '../../../protocol/user.js';
import { OFFLINE, type PresenceReader } from './member-presence.js';
import type { Queryable } from '../db/database.js';
import { memberRows, type MemberRow } from './membership-store.js';

export function toChannelMember(row: MemberRow, presence = OFFLINE): ChannelMember {
  return {
    id: row.userId,
    userId: row.userId,
    name: displayName(row),
    role: row.role,
    isOnline: presence.isOnline,
    isActiveInChannel: presence.isActiveInChannel,
    isTalking: presence.isTalking,
    isMutedInChannel: row.isMuted,
    email: row.email,
    profileImageUrl: row.profileImageUrl,
  };
}

/** Member cards of a channel (or of some of its members), with live presence. */
export async function loadMembers(
  db: Queryable,
  presence: PresenceReader,
  channelId: number,
  onlyUserIds?: string[],
): Promise<ChannelMember[]> {
  const rows = await memberRows(db, channelId, onlyUserIds);
  const live = await presence.presenceIn(
    channelId,
    rows.map((row) => row.userId),
  );
  return rows.map((row) => toChannelMember(row, live.get(row.userId)));
}

export async function loadMember(
  db: Queryable,
  presence: PresenceReader,
  channelId: number,
  userId: string,
): Promise<ChannelMember | null> {
  const [member] = await loadMembers(db, presence, channelId, [userId]);
  return member ?? null;
}
