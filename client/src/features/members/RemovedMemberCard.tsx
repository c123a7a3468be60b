import type { ChannelMember } from '../../../../protocol/channels';
import { UserAvatar } from './UserAvatar';

export const REMOVED_TEXT = 'Removed';

/**
 * Where a just-removed member's card was, while Undo is offered: the same size as the card (its
 * volume row kept as empty space), so the cards after it do not move and the next card's button
 * never slides under the finger that confirmed the removal. No button here; the undo is in the toast.
 */
export function RemovedMemberCard({ member }: { member: ChannelMember }) {
  return (
    <li
      data-testid="removed-member-card"
      className="grid min-w-0 gap-1.5 rounded-xl border border-dashed bg-muted/40 px-3 py-2.5"
    >
      <div className="flex min-w-0 items-center gap-3">
        <UserAvatar name={member.name} imageUrl={member.profileImageUrl} className="grayscale" />
        <div className="grid min-w-0 flex-1 gap-0.5">
          <span className="truncate text-sm font-medium line-through decoration-muted-foreground">
            {member.name}
          </span>
          <span className="text-xs text-muted-foreground">{REMOVED_TEXT}</span>
        </div>
      </div>
      <div aria-hidden="true" className="h-6" />
    </li>
  );
}
