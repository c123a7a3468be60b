import { REMOVED_BY_ADMIN_MESSAGE } from '../../../protocol/invites.js';
import type { AppContext } from '../app-context.js';
import { loadMember } from '../channels/member-view.js';
import { insertMembership } from '../channels/membership-store.js';
import { forbidden, notFound } from '../http/errors.js';
import { findLiveInvite, removedSince } from './invite-store.js';

/**
 * Makes the caller a member of the invite's channel. Idempotent, so a link opened twice (or by someone
 * already in the channel) just answers the channel. Links stay valid for others until they expire or
 * are revoked — but never bring back someone removed from the channel after the link was made.
 */
export async function acceptInvite(ctx: AppContext, userId: string, token: string): Promise<number> {
  const { db } = ctx.database;
  const added = await db.transaction(async (tx) => {
    const invite = await findLiveInvite(tx, token);
    if (!invite) throw notFound('This invite link is invalid or has expired');
    if (await removedSince(tx, invite, userId)) throw forbidden(REMOVED_BY_ADMIN_MESSAGE);
    return { channelId: invite.channelId, isNew: await insertMembership(tx, invite.channelId, userId) };
  });
  if (added.isNew) {
    const member = await loadMember(db, ctx.presence, added.channelId, userId);
    if (member) ctx.channelEvents.publish({ type: 'member_added', channelId: added.channelId, member });
  }
  return added.channelId;
}
