import { Check, Hash } from 'lucide-react';
import type { Channel } from '../../../../protocol/channels';
import { DropdownMenuItem } from '../../ui/DropdownMenu';
import { memberCountText } from './member-count';

export type ChannelMenuItemProps = {
  channel: Channel;
  isCurrent: boolean;
  onSelect: () => void;
};

/** One channel in the Channels dropdown: name, member count, a check on the current one. */
export function ChannelMenuItem({ channel, isCurrent, onSelect }: ChannelMenuItemProps) {
  return (
    <DropdownMenuItem onSelect={onSelect} aria-current={isCurrent || undefined}>
      <Hash aria-hidden="true" className="text-muted-foreground" />
      <span className="min-w-0 flex-1 truncate">{channel.name}</span>
      <span className="text-xs text-muted-foreground">{memberCountText(channel.memberCount)}</span>
      {isCurrent ? <Check aria-label="Current channel" className="text-primary" /> : null}
    </DropdownMenuItem>
  );
}
