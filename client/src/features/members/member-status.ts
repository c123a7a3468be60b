import type { ChannelMember } from '../../../../protocol/channels';

export type MemberStatus = 'speaking' | 'online' | 'idle' | 'offline';

export const MEMBER_STATUS_LABELS: Record<MemberStatus, string> = {
  speaking: 'Speaking',
  online: 'Online',
  idle: 'Idle',
  offline: 'Offline',
};

type Presence = Pick<ChannelMember, 'isOnline' | 'isActiveInChannel' | 'isTalking'>;

/**
 * Spec §4 "Member dot", one status per member. Speaking wins over everything: a member whose voice is
 * on the air should never look absent because a presence update lags. Otherwise offline; online but
 * not active in this channel is Idle (yellow); online and active is Online (green).
 */
export function memberStatus(member: Presence): MemberStatus {
  if (member.isTalking) return 'speaking';
  if (!member.isOnline) return 'offline';
  return member.isActiveInChannel ? 'online' : 'idle';
}

/**
 * Spec §2 card labels. The channel admin role is an extra "Admin" tag shown next to the status
 * rather than instead of it, so an admin's presence stays visible.
 */
export function memberLabels(member: Presence & Pick<ChannelMember, 'role'>): {
  status: MemberStatus;
  label: string;
  isAdmin: boolean;
} {
  const status = memberStatus(member);
  return { status, label: MEMBER_STATUS_LABELS[status], isAdmin: member.role === 'admin' };
}

/**
 * The dot's colour per status (theme tokens, so light and dark both work). No animation here: a
 * member is "Speaking" for as long as their microphone is on the air, mostly silent, so the dot
 * pulses only while their voice is heard (`MemberStatusDot`'s `pulsing`).
 */
export const MEMBER_DOT_CLASSES: Record<MemberStatus, string> = {
  speaking: 'bg-primary ring-4 ring-primary/30',
  online: 'bg-success',
  idle: 'bg-warning',
  offline: 'bg-muted-foreground/50',
};
