import type { AddMemberBody } from '../../../protocol/channels.js';
import { forbidden, notFound } from '../http/errors.js';
import { isChannelAdmin, requireGroupChannel, type ChannelAccess } from './channel-guards.js';
import { hasAllChannelsAccess } from './tier-guards.js';

/**
 * Guard for adding `targetId`: a channel admin or superadmin adds anyone; member tier and above may
 * add themselves (DESIGN §3: "they may join one themselves"). Free users join by invitation.
 */
export function requireMayAdd(access: ChannelAccess, targetId: string): void {
  requireGroupChannel(access);
  if (isChannelAdmin(access)) return;
  if (targetId !== access.user.id) throw forbidden('Only the channel admin can add members');
  if (!hasAllChannelsAccess(access.user))
    throw forbidden('Upgrade to join channels yourself, or use an invite link');
}

/**
 * Guard on who is named, before anyone is looked up: a caller who may not add others learns nothing
 * about an id or an address — only their own may be named (joining by themselves).
 */
export function requireMayName(access: ChannelAccess, body: AddMemberBody): void {
  requireGroupChannel(access);
  if (isChannelAdmin(access)) return;
  const namesSelf =
    'userId' in body ? body.userId === access.user.id : body.email === access.user.email?.toLowerCase();
  if (!namesSelf) throw forbidden('Only the channel admin can add members');
  requireMayAdd(access, access.user.id);
}

/**
 * Guard for removing `targetId`: any member may leave; the channel admin or a superadmin removes others.
 * The creator can neither leave nor be removed, so a channel always keeps its admin; they delete it instead.
 */
export function requireMayRemove(access: ChannelAccess, targetId: string): void {
  requireGroupChannel(access);
  const leaving = targetId === access.user.id;
  if (leaving && !access.membership) throw notFound('You are not a member of this channel');
  if (!leaving && !isChannelAdmin(access))
    throw forbidden('Only the channel admin can remove members');
  if (targetId === access.channel.createdBy) {
    throw forbidden("The channel's creator cannot leave or be removed; delete the channel instead");
  }
}
