import {
  SELF_JOINS_PER_DAY,
  type AddMemberBody,
  type ChannelMember,
} from '../../../protocol/channels.js';
import { isChannelAdmin, type ChannelAccess } from '../access/channel-guards.js';
import { admitMember } from '../access/member-admission.js';
import { requireMayAdd, requireMayName, requireMayRemove } from '../access/member-rules.js';
import type { AppContext } from '../app-context.js';
import { hasBlocked } from '../blocking/block-store.js';
import { conflict, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { revokeInvitesBy } from '../invites/invite-store.js';
import { findUserByEmail, findUserById } from '../users/user-directory.js';
import { onVoiceServer } from '../voice/voice-server-error.js';
import { loadMember } from './member-view.js';
import { deleteMembership, setMuted } from './membership-store.js';
import { recordRemoval } from './removal-store.js';

async function resolveTarget(ctx: AppContext, body: AddMemberBody): Promise<string | null> {
  if ('userId' in body) return (await findUserById(ctx.database.db, body.userId))?.id ?? null;
  return (await findUserByEmail(ctx.database.db, body.email))?.id ?? null;
}

/**
 * Joining by oneself is counted per person and day (shared counters), so nobody walks through every
 * channel to read its members (decision 026).
 */
async function countSelfJoin(ctx: AppContext, userId: string): Promise<void> {
  const joined = await ctx.counters.counter('self-join', 24 * 3600).penalty(userId);
  if (joined.consumedPoints > SELF_JOINS_PER_DAY)
    throw tooManyRequests('You joined too many channels today. Try again tomorrow, or ask for an invite.');
}

/**
 * Adds a user to the channel — a channel admin adding anyone (by id, or by address from the contact
 * picker), or a member-tier user joining by themselves. Refused when the user has blocked the one
 * adding (spec §6), and, for a self-join, after a removal (decision 013: `admitMember`).
 */
export async function addMember(
  ctx: AppContext,
  access: ChannelAccess,
  body: AddMemberBody,
): Promise<ChannelMember> {
  const channelId = access.channel.id;
  requireMayName(access, body);
  const targetId = await resolveTarget(ctx, body);
  if (!targetId) throw notFound('User not found');
  requireMayAdd(access, targetId);
  const door = isChannelAdmin(access) ? ({ kind: 'added-by-admin' } as const) : ({ kind: 'self-join' } as const);
  if (door.kind === 'self-join') await countSelfJoin(ctx, access.user.id);
  await ctx.database.db.transaction(async (tx) => {
    if (await hasBlocked(tx, targetId, access.user.id))
      throw forbidden('This user cannot be added by you');
    if (!(await admitMember(tx, channelId, targetId, door)))
      throw conflict('User is already a member of this channel');
  });
  const member = await loadMember(ctx.database.db, ctx.presence, channelId, targetId);
  if (!member) throw notFound('User not found'); // removed again in between
  ctx.channelEvents.publish({ type: 'member_added', channelId, member });
  return member;
}

export async function removeMember(
  ctx: AppContext,
  access: ChannelAccess,
  targetId: string,
): Promise<void> {
  requireMayRemove(access, targetId);
  const channelId = access.channel.id;
  await ctx.database.db.transaction(async (tx) => {
    if (!(await deleteMembership(tx, channelId, targetId))) throw notFound('Not a member of this channel');
    // The links they made die with their membership; a removal (not a leave) outlives older links.
    await revokeInvitesBy(tx, channelId, targetId);
    if (targetId !== access.user.id) await recordRemoval(tx, channelId, targetId);
    // Disconnected at once (DESIGN §3); if the voice server cannot, the member stays.
    await onVoiceServer('remove the member', () =>
      ctx.voice.provider.disconnectUser(channelId, targetId),
    );
  });
  ctx.channelEvents.publish({ type: 'member_removed', channelId, userId: targetId });
  await ctx.floor.userSilenced(channelId, targetId);
}

/**
 * Admin mute (DESIGN §3): idempotent. The voice server withdraws the publish right inside the
 * transaction: when it cannot, nothing changes and the admin is told (VoiceServerError).
 */
export async function setMemberMuted(
  ctx: AppContext,
  access: ChannelAccess,
  targetId: string,
  isMuted: boolean,
): Promise<ChannelMember> {
  const channelId = access.channel.id;
  await ctx.database.db.transaction(async (tx) => {
    if (!(await setMuted(tx, channelId, targetId, isMuted)))
      throw notFound('Not a member of this channel');
    await onVoiceServer(isMuted ? 'mute' : 'unmute', () =>
      ctx.voice.provider.setPublisherMuted(channelId, targetId, isMuted),
    );
  });
  const member = await loadMember(ctx.database.db, ctx.presence, channelId, targetId);
  if (!member) throw notFound('Not a member of this channel');
  ctx.channelEvents.publish({ type: 'member_muted', channelId, member });
  if (isMuted) await ctx.floor.userSilenced(channelId, targetId);
  return member;
}
