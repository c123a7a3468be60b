import type { ReactNode } from 'react';
import { AudioLines, MicOff } from 'lucide-react';
import type { ChannelMember } from '../../../../protocol/channels';
import { cn } from '../../lib/cn';
import { TruncatedText } from '../../ui/TruncatedText';
import { Badge } from '../../ui/Badge';
import { memberLabels } from './member-status';
import { MemberStatusDot } from './MemberStatusDot';
import { UserAvatar } from './UserAvatar';

export type MemberCardProps = {
  member: ChannelMember;
  /** Marks the signed-in user's own card. */
  isSelf?: boolean;
  /**
   * The voice room hears this member right now (their audio level, from the voice provider), not
   * just an open microphone. Ignored for an admin-muted member, who is never heard.
   */
  isHeard?: boolean;
  /** The "⋮" actions menu (Poke, Call, Talk; Mute and Remove for admins). */
  menu?: ReactNode;
  /** Shown under the member, e.g. the listener's volume slider for them. */
  volumeControl?: ReactNode;
  /** The server cannot be reached: this is the card as last seen (a muted, dashed look). */
  stale?: boolean;
};

/**
 * A channel member on the main screen: avatar, name, status dot and label, Admin and Muted tags,
 * the actions menu, and under them (for others than oneself) how loud they play for the listener.
 * The member heard now is unmistakable: a filled card, a ring round the avatar and "Speaking" with
 * a sound icon; only those move, and only without reduced motion (decision 042).
 */
export function MemberCard({
  member,
  isSelf = false,
  isHeard = false,
  menu,
  volumeControl,
  stale = false,
}: MemberCardProps) {
  const { status, label, isAdmin } = memberLabels(member, isHeard);
  const speaking = status === 'speaking';
  return (
    <li
      data-testid="member-card"
      data-status={status}
      data-audible={speaking || undefined}
      data-stale={stale || undefined}
      className={cn(
        'grid min-w-0 gap-1.5 rounded-xl border bg-card px-3 py-2.5 transition-colors',
        speaking && 'border-primary bg-primary-soft shadow-sm ring-1 ring-primary',
        stale && 'border-dashed bg-muted/50',
      )}
    >
      <div className="flex min-w-0 items-center gap-3">
        <div className="relative rounded-full">
          <UserAvatar
            name={member.name}
            imageUrl={member.profileImageUrl}
            className={cn(stale && 'grayscale')}
          />
          {speaking ? (
            // Only the ring pulses: pulsing the avatar itself faded its initials below 4.5:1.
            <span
              aria-hidden="true"
              className="pointer-events-none absolute -inset-0.5 rounded-full ring-[3px] ring-primary ring-offset-2 ring-offset-primary-soft motion-safe:animate-pulse"
            />
          ) : null}
          <MemberStatusDot
            status={status}
            pulsing={speaking}
            className="absolute -right-0.5 -bottom-0.5 size-3 ring-2 ring-card"
          />
        </div>
        <div className="grid min-w-0 flex-1 gap-0.5">
          {/* A long name is cut off with its whole text in a tooltip (and then reachable by Tab). */}
          <TruncatedText text={member.name} className="text-sm font-medium">
            {isSelf ? <span className="font-normal text-muted-foreground"> (you)</span> : null}
          </TruncatedText>
          <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
            {speaking ? (
              <span className="inline-flex items-center gap-1 font-semibold text-primary-soft-foreground">
                <AudioLines aria-hidden="true" className="size-3.5" />
                {label}
              </span>
            ) : (
              // Full-contrast text: the status is the card's news.
              <span className="text-foreground">{label}</span>
            )}
            {isAdmin ? <Badge variant="secondary">Admin</Badge> : null}
            {member.isMutedInChannel ? (
              <Badge variant="warning">
                <MicOff aria-hidden="true" />
                Muted
              </Badge>
            ) : null}
          </div>
        </div>
        {menu}
      </div>
      {volumeControl}
    </li>
  );
}
