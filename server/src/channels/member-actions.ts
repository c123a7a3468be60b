import {
  SELF_JOINS_PER_DAY,
  type AddMemberBody,
  type ChannelMember,
} from '../../../protocol/channels.js';
import { isChannelAdmin, type ChannelAccess } from '../access/channel-guards.js';
import { admitMember } from '../access/member-admission.js';
import { requireMayAdd, requireMayName, requireMayRemove } from '../access/member-rules.js';
import { hasBlocked } from '../blocking/block-store.js';
import type { Database } from '../db/database.js';
import type { FloorService } from '../floor/floor-service.js';
import { conflict, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { revokeInvitesBy } from '../invites/invite-store.js';
import type { Counters } from '../limits/counters.js';
import type { ChannelEvents } from '../realtime/channel-events.js';
import { findUserByEmail, findUserById } from '../users/user-directory.js';
import type { ChannelGains, PresenceReader } from '../memberships/member-presence.js';
import { loadMember } from '../memberships/member-view.js';
import { deleteMembership, setMuted } from '../memberships/membership-store.js';
import { recordRemoval } from '../memberships/removal-store.js';
import { onVoiceServer, type ChannelVoice } from './voice-server-error.js';

type Publish = Pick<ChannelEvents, 'publish'>;

/** What adding a member touches. */
export interface AddMemberDeps {
  db: Database;
  /** The self-join allowance per person and day, shared across instances. */
  counters: Pick<Counters, 'counter'>;
  /** For the new member's card; told first that they gained the channel. */
  presence: PresenceReader & ChannelGains;
  channelEvents: Publish;
  /** One added by an admin is told on their devices where Chirp is not open. */
  pushes?: { added(channelId: number, byId: string, userId: string): void } | undefined;
}

/** What removing a member touches: their voice ends and any floor they held is freed. */
export interface RemoveMemberDeps {
  db: Database;
  voice: Pick<ChannelVoice, 'disconnectUser'>;
  floor: Pick<FloorService, 'userSilenced'>;
  channelEvents: Publish;
}

/** What an admin mute touches: the voice server, the floor, the member's card. */
export interface SetMemberMutedDeps {
  db: Database;
  voice: Pick<ChannelVoice, 'setPublisherMuted'>;
  floor: Pick<FloorService, 'userSilenced'>;
  presence: PresenceReader;
  channelEvents: Publish;
}

async function resolveTarget(db: Database, body: AddMemberBody): Promise<string | null> {
  if ('userId' in body) return (await findUserById(db, body.userId))?.id ?? null;
  return (await findUserByEmail(db, body.email))?.id ?? null;
}

/**
 * Joining by oneself is counted per person and day (shared counters), so nobody walks through every
 * channel to read its members (decision 026).
 */
async function countSelfJoin(counters: AddMemberDeps['counters'], userId: string): Promise<void> {
  const joined = await counters.counter('self-join', 24 * 3600).penalty(userId);
  if (joined.consumedPoints > SELF_JOINS_PER_DAY)
    throw tooManyRequests(
      'You joined too many channels today. Try again tomorrow, or ask for an invite.',
    );
}

/**
 * Adds a user to the channel — a channel admin adding anyone (by id, or by address from the contact
 * picker), or a member-tier user joining by themselves. Refused when the user has blocked the one
 * adding (spec §6), and, for a self-join, after a removal (decision 013: `admitMember`).
 */
export async function addMember(
  deps: AddMemberDeps,
  access: ChannelAccess,
  body: AddMemberBody,
): Promise<ChannelMember> {
  const channelId = access.channel.id;
  requireMayName(access, body);
  const { db } = deps;
  const targetId = await resolveTarget(db, body);
  if (!targetId) throw notFound('User not found');
  requireMayAdd(access, targetId);
  const door = isChannelAdmin(access)
    ? ({ kind: 'added-by-admin' } as const)
    : ({ kind: 'self-join' } as const);
  if (door.kind === 'self-join') await countSelfJoin(deps.counters, access.user.id);
  await db.transaction(async (tx) => {
    if (await hasBlocked(tx, targetId, access.user.id))
      throw forbidden('This user cannot be added by you');
    if (!(await admitMember(tx, channelId, targetId, door)))
      throw conflict('User is already a member of this channel');
  });
  await deps.presence.channelsGained([targetId]);
  const member = await loadMember(db, deps.presence, channelId, targetId);
  if (!member) throw notFound('User not found'); // removed again in between
  if (door.kind === 'added-by-admin' && targetId !== access.user.id)
    deps.pushes?.added(channelId, access.user.id, targetId);
  deps.channelEvents.publish({ type: 'member_added', channelId, member });
  return member;
}

export async function removeMember(
  deps: RemoveMemberDeps,
  access: ChannelAccess,
  targetId: string,
): Promise<void> {
  requireMayRemove(access, targetId);
  const channelId = access.channel.id;
  await deps.db.transaction(async (tx) => {
    if (!(await deleteMembership(tx, channelId, targetId)))
      throw notFound('Not a member of this channel');
    // The links they made die with their membership; a removal (not a leave) outlives older links.
    await revokeInvitesBy(tx, channelId, targetId);
    if (targetId !== access.user.id) await recordRemoval(tx, channelId, targetId);
    // Disconnected at once (DESIGN §3); if the voice server cannot, the member stays.
    await onVoiceServer('remove the member', () => deps.voice.disconnectUser(channelId, targetId));
  });
  deps.channelEvents.publish({ type: 'member_removed', channelId, userId: targetId });
  await deps.floor.userSilenced(channelId, targetId);
}

/**
 * Admin mute (DESIGN §3): idempotent. The voice server withdraws the publish right inside the
 * transaction: when it cannot, nothing changes and the admin is told (VoiceServerError).
 */
export async function setMemberMuted(
  deps: SetMemberMutedDeps,
  access: ChannelAccess,
  targetId: string,
  isMuted: boolean,
): Promise<ChannelMember> {
  const channelId = access.channel.id;
  await deps.db.transaction(async (tx) => {
    if (!(await setMuted(tx, channelId, targetId, isMuted)))
      throw notFound('Not a member of this channel');
    await onVoiceServer(isMuted ? 'mute' : 'unmute', () =>
      deps.voice.setPublisherMuted(channelId, targetId, isMuted),
    );
  });
  const member = await loadMember(deps.db, deps.presence, channelId, targetId);
  if (!member) throw notFound('Not a member of this channel');
  deps.channelEvents.publish({ type: 'member_muted', channelId, member, by: access.user.id });
  if (isMuted) await deps.floor.userSilenced(channelId, targetId);
  return member;
}
