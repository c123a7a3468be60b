import type { ChannelAccess } from '../access/channel-guards.js';
import { hasBlocked } from '../blocking/block-store.js';
import type { Database } from '../db/database.js';
import { badRequest, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import type { ChannelEvents } from '../realtime/channel-events.js';
import { findMembership } from '../memberships/membership-store.js';
import type { PokeLimiter } from './poke-limiter.js';

/** What a poke touches: memberships and blocks, this server's poke limits, the channel events. */
export interface PokeDeps {
  db: Database;
  limiter: PokeLimiter;
  channelEvents: Pick<ChannelEvents, 'publish'>;
  /** The target's devices where Chirp is not open are told too. */
  pushes?: { poked(channelId: number, fromId: string, toId: string): void } | undefined;
}

/** A member nudges another member (DESIGN §3 "Poke"); the socket layer delivers it. */
export async function poke(deps: PokeDeps, access: ChannelAccess, targetId: string): Promise<void> {
  const from = access.user.id;
  const channelId = access.channel.id;
  if (targetId === from) throw badRequest('You cannot poke yourself');
  const { db } = deps;
  if (!(await findMembership(db, channelId, targetId)))
    throw notFound('Not a member of this channel');
  // A block silences the blocked user towards the blocker everywhere, pokes included.
  if (await hasBlocked(db, targetId, from)) throw forbidden('You cannot poke this member');
  if (!deps.limiter.tryPoke(from, targetId))
    throw tooManyRequests('Please wait 10 seconds before poking this member again');
  deps.pushes?.poked(channelId, from, targetId);
  deps.channelEvents.publish({ type: 'poke', channelId, from, to: targetId });
}
