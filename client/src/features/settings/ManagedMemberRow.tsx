import { BellRing, MicOff, Mic, UserMinus } from 'lucide-react';
import type { ChannelMember } from '../../../../protocol/channels';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { isHeard, memberLabels } from '../members/member-status';
import { MemberStatusDot } from '../members/MemberStatusDot';
import { UserAvatar } from '../members/UserAvatar';

export type ManagedMemberRowProps = {
  member: ChannelMember;
  isSelf: boolean;
  canManage: boolean;
  busy: 'poke' | 'mute' | 'remove' | null;
  /** Who the voice room hears now: "Speaking" is a voice heard, not an open microphone. */
  audible: ReadonlySet<string>;
  onPoke: () => void;
  onToggleMute: () => void;
  onRemove: () => void;
};

/** A member in Settings > Member Management: poke anyone else; admins also mute/unmute and remove. */
export function ManagedMemberRow({
  member,
  isSelf,
  canManage,
  busy,
  audible,
  onPoke,
  onToggleMute,
  onRemove,
}: ManagedMemberRowProps) {
  const { status, label, isAdmin } = memberLabels(member, isHeard(member, audible));
  const manageable = canManage && !isSelf && !isAdmin;
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <UserAvatar name={member.name} imageUrl={member.profileImageUrl} />
      <div className="grid min-w-0 flex-1 basis-36 gap-0.5">
        <span className="truncate text-sm font-medium">
          {member.name}
          {isSelf ? <span className="font-normal text-muted-foreground"> (you)</span> : null}
        </span>
        <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
          <MemberStatusDot status={status} />
          <span>{label}</span>
          {isAdmin ? <Badge variant="secondary">Admin</Badge> : null}
          {member.isMutedInChannel ? <Badge variant="warning">Muted</Badge> : null}
        </div>
      </div>
      {isSelf ? null : (
        <div className="flex flex-wrap gap-1.5">
          <Button
            size="sm"
            variant="outline"
            aria-label={`Poke ${member.name}`}
            disabled={busy === 'poke'}
            onClick={onPoke}
          >
            {busy === 'poke' ? <BusyIcon /> : <BellRing aria-hidden="true" />}
            Poke
          </Button>
          {manageable ? (
            <>
              <Button
                size="sm"
                variant="outline"
                aria-label={`${member.isMutedInChannel ? 'Unmute' : 'Mute'} ${member.name}`}
                disabled={busy === 'mute'}
                onClick={onToggleMute}
              >
                {busy === 'mute' ? (
                  <BusyIcon />
                ) : member.isMutedInChannel ? (
                  <Mic aria-hidden="true" />
                ) : (
                  <MicOff aria-hidden="true" />
                )}
                {member.isMutedInChannel ? 'Unmute' : 'Mute'}
              </Button>
              <Button
                size="sm"
                variant="outline"
                aria-label={`Remove ${member.name}`}
                disabled={busy === 'remove'}
                className="text-destructive-text"
                onClick={onRemove}
              >
                {busy === 'remove' ? <BusyIcon /> : <UserMinus aria-hidden="true" />}
                Remove
              </Button>
            </>
          ) : null}
        </div>
      )}
    </li>
  );
}
