import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/session-store.js';
import { requireUser } from '../auth/require-user.js';
import {
  findChannel,
  findMembership,
  type ChannelRow,
  type MembershipRow,
} from '../memberships/membership-store.js';
import { CONVERSATION_REFUSALS } from '../../../protocol/conversations.js';
import { forbidden, notFound } from '../http/errors.js';

export interface ChannelAccess {
  user: SessionUser;
  channel: ChannelRow;
  /** The caller's own membership, null when not a member. */
  membership: MembershipRow | null;
}

/**
 * Guard: the signed-in caller and an existing channel (401, then 404). Existence is not a secret —
 * member tier sees every channel — so a missing channel is 404 and a refused one 403 for everyone.
 * A direct conversation is the exception: to anyone but its two members, a superadmin included, it
 * does not exist (404), at every door that starts here (decision 039).
 */
export async function requireChannel(
  request: FastifyRequest,
  channelId: number,
): Promise<ChannelAccess> {
  const user = await requireUser(request);
  const { db } = request.server.ctx.database;
  const channel = await findChannel(db, channelId);
  if (!channel) throw notFound('Channel not found');
  const membership = await findMembership(db, channelId, user.id);
  if (channel.kind === 'direct' && !membership) throw notFound('Channel not found');
  return { user, channel, membership };
}

export const isSuperadmin = (user: SessionUser) => user.subscriptionTier === 'superadmin';

/**
 * A channel's admin: its creator (role admin), or any superadmin (DESIGN §3 "Channels"). A direct
 * conversation has none: nobody renames, deletes, reconfigures or manages its members.
 */
export const isChannelAdmin = (access: ChannelAccess) =>
  access.channel.kind === 'group' &&
  (access.membership?.role === 'admin' || isSuperadmin(access.user));

/** Refuses group-only acts (managing members, invites, settings) on a direct conversation. */
export function requireGroupChannel(access: ChannelAccess): void {
  if (access.channel.kind === 'direct') throw forbidden(CONVERSATION_REFUSALS.groupOnly);
}

/** Guard: a member of the channel — for acts done as a member, like poking. */
export async function requireChannelMember(
  request: FastifyRequest,
  channelId: number,
): Promise<ChannelAccess> {
  const access = await requireChannel(request, channelId);
  if (!access.membership) throw forbidden('You are not a member of this channel');
  return access;
}

/** Guard: may see inside the channel (members, mutes, invite links): a member or a superadmin. */
export async function requireChannelReader(
  request: FastifyRequest,
  channelId: number,
): Promise<ChannelAccess> {
  const access = await requireChannel(request, channelId);
  if (!access.membership && !isSuperadmin(access.user))
    throw forbidden('You are not a member of this channel');
  return access;
}

/** Guard: may manage the channel (add, remove, mute, delete): its admin or a superadmin. */
export async function requireChannelAdmin(
  request: FastifyRequest,
  channelId: number,
): Promise<ChannelAccess> {
  const access = await requireChannel(request, channelId);
  requireGroupChannel(access);
  if (!isChannelAdmin(access)) throw forbidden('Only the channel admin can do this');
  return access;
}
