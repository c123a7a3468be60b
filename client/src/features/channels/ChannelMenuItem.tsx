import { Check, Hash } from 'lucide-react';
import type { Channel, ChannelActivity } from '../../../../protocol/channels';
import { Badge } from '../../ui/Badge';
import { DropdownMenuItem } from '../../ui/DropdownMenu';
import { TRANSMISSION_TEXTS } from '../transmissions/transmission-texts';
import { memberCountText } from './member-count';

export type ChannelMenuItemProps = {
  channel: Channel;
  isCurrent: boolean;
  /** What is going on there (one of my channels): transmissions I missed, others there now. */
  activity?: Pick<ChannelActivity, 'missed' | 'online'> | undefined;
  onSelect: () => void;
};

export const onlineText = (n: number) => `${n} online`;

/**
 * One channel in the Channels dropdown: its name (wrapped, never cut), member count, who is there
 * now ("1 online"), "2 missed" when something was said while I was away, a check on the current one.
 */
export function ChannelMenuItem({ channel, isCurrent, activity, onSelect }: ChannelMenuItemProps) {
  const missed = activity?.missed ?? 0;
  const online = activity?.online ?? 0;
  return (
    <DropdownMenuItem
      onSelect={onSelect}
      aria-current={isCurrent || undefined}
      className="items-start"
    >
      <Hash aria-hidden="true" className="mt-0.5 text-muted-foreground" />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="font-medium [overflow-wrap:anywhere]">{channel.name}</span>
        <span className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
          <span>{memberCountText(channel.memberCount)}</span>
          {online > 0 ? (
            <span className="inline-flex items-center gap-1 text-success-text">
              <span aria-hidden="true" className="size-2 rounded-full bg-success" />
              {onlineText(online)}
            </span>
          ) : null}
        </span>
      </span>
      {missed > 0 ? (
        <Badge variant="destructive" className="mt-0.5">
          {TRANSMISSION_TEXTS.missed(missed)}
        </Badge>
      ) : null}
      {isCurrent ? <Check aria-label="Current channel" className="mt-0.5 text-primary" /> : null}
    </DropdownMenuItem>
  );
}
