import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChannelMember } from '../../../../protocol/channels';
import { Spinner } from '../../ui/Spinner';
import { useChannelMembers } from '../channels/useChannelMembers';
import { openConversation } from '../channels/open-conversation';
import { useSpeakingUserIds } from '../voice/useSpeakingUserIds';
import { MemberVolumeSlider } from '../voice-preferences/MemberVolumeSlider';
import { MemberCard } from './MemberCard';
import { memberStatus, type MemberStatus } from './member-status';
import { useRemoveMember } from './useRemoveMember';

export type MemberListProps = {
  channelId: number;
  selfId: string;
  /** Whether the remove button shows on other members (channel admins), never on the creator. */
  canRemove: boolean;
  /** Offers "Talk" (a direct conversation) on other members: in group channels. */
  offerTalk?: boolean;
};

/** Who is speaking or present first, so the bar reads like a room. */
const STATUS_ORDER: Record<MemberStatus, number> = { speaking: 0, online: 1, idle: 2, offline: 3 };

function byPresence(a: ChannelMember, b: ChannelMember): number {
  return (
    STATUS_ORDER[memberStatus(a)] - STATUS_ORDER[memberStatus(b)] || a.name.localeCompare(b.name)
  );
}

/** The current channel's member cards (spec §2), refetched every 5 s. */
export function MemberList({ channelId, selfId, canRemove, offerTalk = false }: MemberListProps) {
  const queryClient = useQueryClient();
  const members = useChannelMembers(channelId);
  const removeMember = useRemoveMember(channelId);
  const audible = useSpeakingUserIds();
  const [removing, setRemoving] = useState<string | null>(null);

  if (members.isLoading) return <Spinner label="Loading members" className="py-3" />;
  if (members.isError)
    return (
      <p role="alert" className="py-3 text-sm text-destructive-text">
        {members.error.message}
      </p>
    );

  const sorted = [...(members.data ?? [])].sort(byPresence);
  const talk = (member: ChannelMember) => void openConversation(queryClient, member.id);
  const remove = (member: ChannelMember) => {
    setRemoving(member.id);
    removeMember.mutate(member.id, { onSettled: () => setRemoving(null) });
  };

  return (
    <ul aria-label="Members" className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
      {sorted.map((member) => (
        <MemberCard
          key={member.id}
          member={member}
          isSelf={member.id === selfId}
          onTalk={offerTalk && member.id !== selfId ? talk : undefined}
          // The channel's admin (its creator) cannot be removed (DESIGN §3), so offer no button that fails.
          onRemove={
            canRemove && member.id !== selfId && member.role !== 'admin' ? remove : undefined
          }
          isRemoving={removeMember.isPending && removing === member.id}
          isAudible={audible.has(member.id)}
          // One's own voice is never played back (spec §6), so only others get a volume.
          volumeControl={
            member.id === selfId ? undefined : (
              <MemberVolumeSlider memberId={member.id} name={member.name} />
            )
          }
        />
      ))}
    </ul>
  );
}
