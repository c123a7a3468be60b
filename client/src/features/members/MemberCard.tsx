import type { ReactNode } from 'react';
import { MicOff, RadioTower, UserMinus } from 'lucide-react';
import type { ChannelMember } from '../../../../protocol/channels';
import { cn } from '../../lib/cn';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { memberLabels } from './member-status';
import { MemberStatusDot } from './MemberStatusDot';
import { UserAvatar } from './UserAvatar';

export type MemberCardProps = {
  member: ChannelMember;
  /** Marks the signed-in user's own card. */
  isSelf?: boolean;
  /** Shows "Talk" (a one-to-one walkie-talkie conversation with them), on other members. */
  onTalk?: (member: ChannelMember) => void;
  /** Shows the remove button (admins, on other members). */
  onRemove?: (member: ChannelMember) => void;
  isRemoving?: boolean;
  /** The voice room hears this member right now (audio level), not just an open microphone. */
  isAudible?: boolean;
  /** Shown under the member, e.g. the listener's volume slider for them. */
  volumeControl?: ReactNode;
};

/**
 * A channel member on the main screen: avatar, name, status dot and label, Admin and Muted tags,
 * and under them (for others than oneself) how loud they play for the listener.
 */
export function MemberCard({
  member,
  isSelf = false,
  onTalk,
  onRemove,
  isRemoving = false,
  isAudible = false,
  volumeControl,
}: MemberCardProps) {
  const { status, label, isAdmin } = memberLabels(member);
  return (
    <li
      data-testid="member-card"
      data-status={status}
      data-audible={isAudible || undefined}
      className={cn(
        'grid min-w-0 gap-1.5 rounded-xl border bg-card px-3 py-2.5 transition-colors',
        status === 'speaking' && 'border-primary/60 bg-primary-soft/40',
      )}
    >
      <div className="flex min-w-0 items-center gap-3">
        <div className="relative rounded-full">
          <UserAvatar name={member.name} imageUrl={member.profileImageUrl} />
          {isAudible ? (
            // Only the ring pulses: pulsing the avatar itself faded its initials below 4.5:1.
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-0 rounded-full ring-2 ring-primary ring-offset-2 ring-offset-card motion-safe:animate-pulse"
            />
          ) : null}
          <MemberStatusDot
            status={status}
            pulsing={isAudible}
            className="absolute -right-0.5 -bottom-0.5 size-3 ring-2 ring-card"
          />
        </div>
        <div className="grid min-w-0 flex-1 gap-0.5">
          <span className="truncate text-sm font-medium">
            {member.name}
            {isSelf ? <span className="font-normal text-muted-foreground"> (you)</span> : null}
          </span>
          <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
            {/* Full-contrast text: the status is the card's news, also on a speaking card's tint. */}
            <span className="text-foreground">{label}</span>
            {isAdmin ? <Badge variant="secondary">Admin</Badge> : null}
            {member.isMutedInChannel ? (
              <Badge variant="warning">
                <MicOff aria-hidden="true" />
                Muted
              </Badge>
            ) : null}
          </div>
        </div>
        {onTalk ? (
          <Button
            size="icon"
            variant="ghost"
            aria-label={`Talk with ${member.name}`}
            title={`Talk with ${member.name}`}
            className="text-primary"
            onClick={() => onTalk(member)}
          >
            <RadioTower aria-hidden="true" />
          </Button>
        ) : null}
        {onRemove ? (
          <Button
            size="icon"
            variant="ghost"
            aria-label={`Remove ${member.name}`}
            disabled={isRemoving}
            className="text-muted-foreground hover:text-destructive-text"
            onClick={() => onRemove(member)}
          >
            {isRemoving ? <BusyIcon /> : <UserMinus aria-hidden="true" />}
          </Button>
        ) : null}
      </div>
      {volumeControl}
    </li>
  );
}
