import { admitMember } from '../access/member-admission.js';
import { loadMember } from '../memberships/member-view.js';
import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { ChannelGains, PresenceReader } from '../memberships/member-presence.js';
import type { ChannelEvents } from '../realtime/channel-events.js';
import { INVALID_INVITE_MESSAGE } from '../../../protocol/invites.js';
import { findLiveInvite } from './invite-store.js';

/** What accepting an invite touches: the invite and membership, the new member's card, the event. */
export interface AcceptInviteDeps {
  db: Database;
  /** For the new member's card; told first that they gained the channel. */
  presence: PresenceReader & ChannelGains;
  channelEvents: Pick<ChannelEvents, 'publish'>;
}

/**
 * Makes the caller a member of the invite's channel. Idempotent, so a link opened twice (or by someone
 * already in the channel) just answers the channel. Links stay valid for others until they expire or
 * are revoked — but never bring back someone removed from the channel after the link was made.
 */
export async function acceptInvite(
  deps: AcceptInviteDeps,
  userId: string,
  token: string,
): Promise<number> {
  const { db } = deps;
  const added = await db.transaction(async (tx) => {
    const invite = await findLiveInvite(tx, token);
    if (!invite) throw notFound(INVALID_INVITE_MESSAGE);
    const door = { kind: 'invite', mintedAt: invite.createdAt } as const;
    return {
      channelId: invite.channelId,
      isNew: await admitMember(tx, invite.channelId, userId, door),
    };
  });
  if (added.isNew) {
    await deps.presence.channelsGained([userId]);
    const member = await loadMember(db, deps.presence, added.channelId, userId);
    if (member)
      deps.channelEvents.publish({ type: 'member_added', channelId: added.channelId, member });
  }
  return added.channelId;
}
