import type { ChannelMember } from '../../../../protocol/channels';

export type MemberStatus = 'speaking' | 'online' | 'idle' | 'offline';

export const MEMBER_STATUS_LABELS: Record<MemberStatus, string> = {
  speaking: 'Speaking',
  online: 'Online',
  idle: 'Idle',
  offline: 'Offline',
};

type Presence = Pick<ChannelMember, 'isOnline' | 'isActiveInChannel' | 'isMutedInChannel'>;

/**
 * Whether the member is heard right now (decision 044): the voice room reports their voice above
 * its level threshold (`speakingUserIds`: the built-in SFU's level detector, LiveKit's active
 * speakers). An open microphone alone is not speaking, and an admin-muted member is never heard,
 * whatever a late level report says.
 */
export function isHeard(
  member: Pick<ChannelMember, 'id' | 'isMutedInChannel'>,
  audible: ReadonlySet<string>,
): boolean {
  return !member.isMutedInChannel && audible.has(member.id);
}

/**
 * Spec §4 "Member dot", one status per member. Speaking (decision 044) is a voice heard now, and
 * wins over everything so a heard voice never looks absent because a presence update lags.
 * Otherwise offline; online but not active in this channel is Idle (yellow); online and active is
 * Online (green), silent open microphone or not.
 */
export function memberStatus(member: Presence, heard = false): MemberStatus {
  if (heard && !member.isMutedInChannel) return 'speaking';
  if (!member.isOnline) return 'offline';
  return member.isActiveInChannel ? 'online' : 'idle';
}

/**
 * Spec §2 card labels. The channel admin role is an extra "Admin" tag shown next to the status
 * rather than instead of it, so an admin's presence stays visible.
 */
export function memberLabels(
  member: Presence & Pick<ChannelMember, 'role'>,
  heard = false,
): {
  status: MemberStatus;
  label: string;
  isAdmin: boolean;
} {
  const status = memberStatus(member, heard);
  return { status, label: MEMBER_STATUS_LABELS[status], isAdmin: member.role === 'admin' };
}

/**
 * The dot's colour per status (theme tokens, so light and dark both work). Speaking is shown only
 * while a voice is heard, so its dot may pulse (decision 042: nothing moves while all are silent).
 */
export const MEMBER_DOT_CLASSES: Record<MemberStatus, string> = {
  speaking: 'bg-primary ring-4 ring-primary/30',
  online: 'bg-success',
  idle: 'bg-warning',
  offline: 'bg-muted-foreground/50',
};

/** Who is present first, so the bar reads like a room; then by name (stable between polls). */
const STATUS_ORDER: Record<MemberStatus, number> = { speaking: 0, online: 1, idle: 2, offline: 3 };

/**
 * The member list's order: members heard now first (in their usual order among themselves), then
 * online, idle, offline, each by name. A silent open microphone does not move anyone.
 */
export function orderMembers<M extends ChannelMember>(
  members: readonly M[],
  heard: ReadonlySet<string>,
): M[] {
  const rank = (member: M) =>
    (isHeard(member, heard) ? 0 : 10) + STATUS_ORDER[memberStatus(member)];
  return [...members].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}
