import type { AddMemberBody, ChannelMember } from '../../../protocol/channels.js';
import type { ChannelAccess } from '../access/channel-guards.js';
import { requireMayAdd, requireMayRemove } from '../access/member-rules.js';
import type { AppContext } from '../app-context.js';
import { hasBlocked } from '../blocking/block-store.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import { recordRemoval, revokeInvitesBy } from '../invites/invite-store.js';
import { findUserByEmail, findUserById } from '../users/user-directory.js';
import { onVoiceServer } from '../voice/voice-server-error.js';
import { loadMember } from './member-view.js';
import { deleteMembership, insertMembership, setMuted } from './membership-store.js';

async function resolveTarget(ctx: AppContext, body: AddMemberBody): Promise<string | null> {
  if ('userId' in body) return (await findUserById(ctx.database.db, body.userId))?.id ?? null;
  return (await findUserByEmail(ctx.database.db, body.email))?.id ?? null;
}

/** Adds a user to the channel; refused when the user has blocked the one adding (spec §6). */
export async function addMember(
  ctx: AppContext,
  access: ChannelAccess,
  body: AddMemberBody,
): Promise<ChannelMember> {
  const channelId = access.channel.id;
  // A named user id is checked before the lookup, so a refused caller learns nothing about it.
  if ('userId' in body) requireMayAdd(access, body.userId);
  const targetId = await resolveTarget(ctx, body);
  if (!targetId) throw notFound('User not found');
  requireMayAdd(access, targetId);
  await ctx.database.db.transaction(async (tx) => {
    if (await hasBlocked(tx, targetId, access.user.id))
      throw forbidden('This user cannot be added by you');
    if (!(await insertMembership(tx, channelId, targetId)))
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
