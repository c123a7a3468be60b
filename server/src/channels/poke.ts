import type { ChannelAccess } from '../access/channel-guards.js';
import type { AppContext } from '../app-context.js';
import { hasBlocked } from '../blocking/block-store.js';
import { badRequest, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { findMembership } from './membership-store.js';
import type { PokeLimiter } from './poke-limiter.js';

/** A member nudges another member (DESIGN §3 "Poke"); the socket layer delivers it. */
export async function poke(
  ctx: AppContext,
  limiter: PokeLimiter,
  access: ChannelAccess,
  targetId: string,
): Promise<void> {
  const from = access.user.id;
  const channelId = access.channel.id;
  if (targetId === from) throw badRequest('You cannot poke yourself');
  const { db } = ctx.database;
  if (!(await findMembership(db, channelId, targetId)))
    throw notFound('Not a member of this channel');
  // A block silences the blocked user towards the blocker everywhere, pokes included.
  if (await hasBlocked(db, targetId, from)) throw forbidden('You cannot poke this member');
  if (!limiter.tryPoke(from, targetId))
    throw tooManyRequests('Please wait 10 seconds before poking this member again');
  ctx.channelEvents.publish({ type: 'poke', channelId, from, to: targetId });
}
