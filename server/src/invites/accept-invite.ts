import type { AppContext } from '../app-context.js';
import { loadMember } from '../channels/member-view.js';
import { insertMembership } from '../channels/membership-store.js';
import { notFound } from '../http/errors.js';
import { findInviteChannel } from './invite-store.js';

/**
 * Makes the caller a member of the invite's channel. Idempotent, so a link opened twice (or by someone
 * already in the channel) just answers the channel. Links stay valid for others until they expire.
 */
export async function acceptInvite(
  ctx: AppContext,
  userId: string,
  token: string,
): Promise<number> {
  const { db } = ctx.database;
  const channelId = await findInviteChannel(db, token);
  if (channelId === null) throw notFound('This invite link is invalid or has expired');
  if (await insertMembership(db, channelId, userId)) {
    const member = await loadMember(db, ctx.presence, channelId, userId);
    if (member) ctx.channelEvents.publish({ type: 'member_added', channelId, member });
  }
  return channelId;
}
