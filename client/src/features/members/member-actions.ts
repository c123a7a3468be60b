import type { ChannelMember } from '../../../../protocol/channels';
import type { User } from '../../../../protocol/user';

/** What the member card's menu offers; an absent action is not offered. */
export type MemberActions = {
  onPoke: () => void;
  onCall: () => void;
  /** A direct conversation (group channels only). */
  onTalk?: () => void;
  /** Channel admins, on members who are not the channel's admin. */
  onToggleMute?: () => void;
  /** Channel admins, on members who are not the channel's admin; asks first. */
  onRemove?: () => void;
  /** Which action is running for this member, if one is. */
  busy?: 'poke' | 'mute' | null;
};

export const MEMBER_ACTION_TEXTS = {
  menu: (name: string) => `Actions for ${name}`,
  poke: 'Poke',
  call: 'Call',
  talk: 'Talk',
  mute: 'Mute',
  unmute: 'Unmute',
  remove: 'Remove…',
} as const;

/**
 * The callee of a call placed from a member card: the call screens show `displayName(user)`, which
 * for a free-tier user without a last name is the first name, so the member's card name is kept.
 */
export function calleeOf(member: ChannelMember): User {
  return {
    id: member.id,
    email: null,
    firstName: member.name,
    lastName: null,
    profileImageUrl: member.profileImageUrl,
    subscriptionTier: 'free',
  };
}
