import { forbidden, notFound } from '../http/errors.js';
import { isChannelAdmin, type ChannelAccess } from './channel-guards.js';
import { hasAllChannelsAccess } from './tier-guards.js';

/**
 * Guard for adding `targetId`: a channel admin or superadmin adds anyone; member tier and above may
 * add themselves (DESIGN §3: "they may join one themselves"). Free users join by invitation.
 */
export function requireMayAdd(access: ChannelAccess, targetId: string): void {
  if (isChannelAdmin(access)) return;
  if (targetId !== access.user.id) throw forbidden('Only the channel admin can add members');
  if (!hasAllChannelsAccess(access.user))
    throw forbidden('Upgrade to join channels yourself, or use an invite link');
}

/**
 * Guard for removing `targetId`: any member may leave; the channel admin or a superadmin removes others.
 * The creator can neither leave nor be removed, so a channel always keeps its admin; they delete it instead.
 */
export function requireMayRemove(access: ChannelAccess, targetId: string): void {
  const leaving = targetId === access.user.id;
  if (leaving && !access.membership) throw notFound('You are not a member of this channel');
  if (!leaving && !isChannelAdmin(access))
    throw forbidden('Only the channel admin can remove members');
  if (targetId === access.channel.createdBy) {
    throw forbidden("The channel's creator cannot leave or be removed; delete the channel instead");
  }
}
